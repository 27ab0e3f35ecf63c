"""The checked engine: the one Python statement of each rule, the reference every other part
asks (docs/architecture.md#the-engine-in-python).

:class:`~.state.State` deals, lists and checks every action (:mod:`.checks`, :mod:`.moves`)
and applies it; :mod:`.view` censors it for one seat; :mod:`.window` is the claim window
every table drives; :mod:`.session` carries a session's pot and balances from deal to deal.
Their public names are :mod:`lald.core`'s.
"""
