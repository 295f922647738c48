"""The pure-Python search players of hexgames 0.1, kept while the native core's players
replace them (issue 10): they are registered as ``py-alphabeta``, ``py-mcts``,
``py-solver`` and ``py-greedy`` so that the native players can be measured against them
with ``hexgames match``. They read the Python boards' private fields for speed, which no
other engine code may do; once the native search is measured at least as strong at
equal time this package is removed.
"""
