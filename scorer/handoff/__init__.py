"""Work handed to the table server that holds a data folder (`tarabish import` while it runs)."""
