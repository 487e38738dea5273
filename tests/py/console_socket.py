"""console_socket.py SOCKET OUT: an engine's end of --console-socket, as
conmon and containerd's shim hold it: listens on the AF_UNIX stream socket
SOCKET, takes the one pty master the runtime sends (SCM_RIGHTS), and copies
what the container writes to its terminal into OUT until the pty closes
(EIO when the last slave is gone) or 20 s pass.
"""
import array
import os
import select
import socket
import sys
import time


def main():
    path, out = sys.argv[1], sys.argv[2]
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    srv.settimeout(20)
    conn, _ = srv.accept()
    fds = array.array("i")
    msg, anc, _, _ = conn.recvmsg(256, socket.CMSG_SPACE(fds.itemsize))
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: fds.itemsize])
    if not fds:
        sys.exit("console_socket: no fd received (message %r)" % msg)
    master = fds[0]
    deadline = time.time() + 20
    with open(out, "wb") as f:
        while time.time() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:
                break  # EIO: the container's side is closed
            if not data:
                break
            f.write(data)
            f.flush()


if __name__ == "__main__":
    main()
