"""Players that choose legal actions from what a seat may see: the uniform random bot (the
baseline for tests and simulations), the rule bot (bids from hand strength, plays sensibly) and the
search bot (plays its cards by determinized Monte Carlo search over the ruleset).
"""

from interpreter.bots.randombot import RandomBot, expand, play_out
from interpreter.bots.rulebot import RuleBot
from interpreter.bots.searchbot import SearchBot

__all__ = ["RandomBot", "RuleBot", "SearchBot", "expand", "play_out"]
