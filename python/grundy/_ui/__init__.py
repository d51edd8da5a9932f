"""What grundy shows: the one progress bar, notebook cards and value tables, and plots.

Private: the objects in the other packages use it to show themselves. It imports no game,
result or position (they are passed in), so every package above may use it.
"""
