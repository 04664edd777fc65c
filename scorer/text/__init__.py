"""Games in words for a terminal or a notice: the sheet, the edit trail, safe lines."""
