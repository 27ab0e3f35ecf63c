"""The commands of the people who run a site: ``lald serve`` (one server, or a site of
several behind nginx: :mod:`.site`), ``lald worker`` (one server of a site, which
``lald serve --workers`` starts) and ``lald db`` (the database's schema, where a table is,
and the site's finished games as a dataset)."""
