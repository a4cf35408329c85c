"""bombsolve command line: click commands that parse, call `solvers`, and print or write."""
