"""Ways in for people and programs: the `tarock` command (`cli`), a seat played in the
terminal (`human`), readable logs (`log`), the JSON-lines protocol (`server`) and simulations
(`simulate`). The top layer: it may use every other package, and none uses it.
"""
