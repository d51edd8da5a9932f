import os
import sys

# The oracle and other helpers live beside the tests.
sys.path.insert(0, os.path.dirname(__file__))


def pytest_configure(config):
    # Registered here, not in pyproject.toml, so that the wheel's test run (a copy of tests/ alone)
    # knows the mark too.
    config.addinivalue_line(
        "markers", "slow: long tests (subprocesses, signals: tests/faults); CI runs them, deselect with -m 'not slow'"
    )
