"""The notation grammar, installed as package data (``tute.lark``); see ``tutepgn.notation.grammar``."""
