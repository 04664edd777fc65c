"""Groups (issue 33): a family, "Friday bish", a legion's league: a name, its
members, its games and a keeper code. Statistics and ratings are per group:
within a group a player is a member name (capitals and outer spaces ignored).

`model` holds the values and rules, `folder` keeps groups in a data folder,
`pg` in a community's PostgreSQL database; both give the `Groups` interface."""

from scorer.groups.model import (
    BadGroup,
    Group,
    GroupNotFound,
    NotKeeper,
    member_key,
)

__all__ = ["BadGroup", "Group", "GroupNotFound", "NotKeeper", "member_key"]
