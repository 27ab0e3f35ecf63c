"""The full-screen table of ``lald play`` (Textual): the app (:mod:`~lald.tui.fullscreen.app`),
its table screen (:mod:`~lald.tui.fullscreen.table`) and action menu
(:mod:`~lald.tui.fullscreen.menu`), the screens around it (setup, hand-over,
settlement, help: :mod:`~lald.tui.fullscreen.screens`; the review:
:mod:`~lald.tui.fullscreen.review`), the widgets that draw engine views
(:mod:`~lald.tui.fullscreen.widgets`) and the styles (``lald.tcss``). On the table's
driver and words (:mod:`lald.tui`)."""
