// The SCXML importer lives here (see ARCHITECTURE.md).
