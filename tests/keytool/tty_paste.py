#!/usr/bin/env python3
"""Run a command on a new pseudo-terminal, wait for its prompt, then paste
the lines of a file at once, as a user pasting a copied block does.
    tty_paste.py PROMPT FILE COMMAND...
Exits with the command's status (124 if no prompt came within 60 s)."""
import os
import pty
import select
import sys
import time

prompt, path, argv = sys.argv[1].encode(), sys.argv[2], sys.argv[3:]
with open(path, "rb") as f:
    paste = b"".join(line for line in f if line.strip())
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
seen, deadline, pasted = b"", time.monotonic() + 60, False
while True:
    left = deadline - time.monotonic()
    if left <= 0:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        sys.exit(124)
    ready, _, _ = select.select([fd], [], [], left)
    if not ready:
        continue
    try:
        data = os.read(fd, 4096)
    except OSError:  # the command closed the terminal
        break
    if not data:
        break
    seen += data
    if not pasted and prompt in seen:
        os.write(fd, paste)
        pasted = True
sys.stdout.buffer.write(seen)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
