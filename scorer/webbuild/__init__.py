"""`tarabish build-web`: the whole app as a static site that runs on one phone."""
