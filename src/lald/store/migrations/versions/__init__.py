"""One module a revision of the store's schema, oldest first (see ``..``)."""
