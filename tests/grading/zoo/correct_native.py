"""A correct submission written against the native API (full marks)."""

from _native_student import (AlphaBetaAgent, ExpectimaxAgent, MinimaxAgent,  # noqa: F401
                             ReflexAgent, better_evaluation)
