"""One module per `tarabish` subcommand."""
