"""The terminal's tables as lines of text: ``lald play --plain``
(:mod:`~lald.tui.text.plain`, for screen readers, pipes and scripts) and ``lald play
--online URL`` (:mod:`~lald.tui.text.online`, a seat of a web table). On the table's driver
and words (:mod:`lald.tui`)."""
