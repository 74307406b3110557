"""Players that choose legal actions from what a seat may see: the uniform random bot (the
baseline for tests and simulations) and the rule bot (bids from hand strength, plays sensibly).
"""

from interpreter.bots.randombot import RandomBot, expand, play_out
from interpreter.bots.rulebot import RuleBot

__all__ = ["RandomBot", "RuleBot", "expand", "play_out"]
