"""Channel adapters, the web app, reply rendering and the `lembra` command line."""
