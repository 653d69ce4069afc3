"""tcp-exchange.py - a few TCP segments over 127.0.0.1 and ::1, for the captures of
record-fixtures.sh: each send and its acknowledgement fire the tcp, sock and skb events
(tcp_probe's sockaddrs, inet_sock_set_state's IPv4, IPv6 and IPv4-mapped addresses)."""
import socket
import threading


def exchange(family, host):
    srv = socket.socket(family, socket.SOCK_STREAM)
    srv.bind((host, 0))
    srv.listen(1)

    def serve():
        conn, _ = srv.accept()
        while conn.recv(65536):
            pass
        conn.close()

    t = threading.Thread(target=serve)
    t.start()
    c = socket.create_connection(srv.getsockname()[:2])
    for _ in range(8):
        c.sendall(b"x" * 3000)
    c.close()
    t.join()
    srv.close()


exchange(socket.AF_INET, "127.0.0.1")
if socket.has_ipv6:
    try:
        exchange(socket.AF_INET6, "::1")
    except OSError:
        pass  # no IPv6 loopback here: the IPv4 exchange is enough
