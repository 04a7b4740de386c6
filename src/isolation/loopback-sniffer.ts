/**
 * What names every refused connection and every unanswered datagram of a sandbox: a packet
 * socket on the namespace's loopback, run as root by the namespace's first process (Python 3's
 * `socket.AF_PACKET`, isolated: `python3 -I -S`). Every address in the namespace is local, so the
 * kernel answers a TCP connection nothing listens for with a reset, and a UDP datagram nothing
 * listens for with an ICMP (ICMPv6) port unreachable; both carry where the attempt went. It
 * reads only those answers, which the kernel writes: a reset to a SYN (RST and ACK, sequence
 * number zero, which no accepted connection's reset has) names the address and port that
 * refused; a port unreachable quotes the datagram's header, whose destination it names. A
 * process of the run's user cannot send either (it has no raw socket), so what it reports is only
 * what the run's processes tried, never what they wrote.
 *
 * It prints one JSON line per destination (`{"kind":"connect"|"udp","host","port","count"}`),
 * counts added up between prints (at most one print each 50 ms, at most 256 destinations each,
 * the rest counted without one), and ends once its standard input closes, after reading every
 * answer already queued (8 MiB of them: what a flood beyond that loses, the kernel's counters
 * still count). A kernel filter passes it resets and ICMP only, never the run's traffic.
 *
 * Plain Python in a string: the namespace's first process runs it; it is not part of loopgate's bundle.
 */
export const LOOPBACK_SNIFFER = String.raw`
import json, os, select, socket, struct, sys, time

ETH_P_ALL = 3
PACKET_OUTGOING = 4
s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(ETH_P_ALL))
s.bind(('lo', ETH_P_ALL))

def attach_filter():
    # Incoming copies only (loopback shows each packet twice); IPv4 or IPv6 carrying ICMP, or TCP with RST set.
    ad = lambda n: (n - 0x1000) & 0xffffffff
    prog = [
        (0x20, 0, 0, ad(4)),      # A = packet type
        (0x15, 15, 0, 4),         # outgoing: drop
        (0x20, 0, 0, ad(0)),      # A = protocol
        (0x15, 1, 0, 0x0800),     # IPv4
        (0x15, 6, 12, 0x86dd),    # IPv6, else drop
        (0x30, 0, 0, 9),          # IPv4: A = protocol
        (0x15, 9, 0, 1),          # ICMP: keep
        (0x15, 0, 9, 6),          # not TCP: drop
        (0xb1, 0, 0, 0),          # X = header length
        (0x50, 0, 0, 13),         # A = TCP flags
        (0x45, 5, 6, 0x04),       # RST: keep, else drop
        (0x30, 0, 0, 6),          # IPv6: A = next header
        (0x15, 3, 0, 58),         # ICMPv6: keep
        (0x15, 0, 3, 6),          # not TCP: drop
        (0x30, 0, 0, 53),         # A = TCP flags
        (0x45, 0, 1, 0x04),       # RST: keep, else drop
        (0x06, 0, 0, 256),        # keep (the first 256 bytes)
        (0x06, 0, 0, 0),          # drop
    ]
    try:
        import ctypes
        raw = b''.join(struct.pack('HBBI', *i) for i in prog)
        buf = ctypes.create_string_buffer(raw, len(raw))
        fprog = struct.pack('HL', len(prog), ctypes.addressof(buf))
        s.setsockopt(socket.SOL_SOCKET, 26, fprog)  # SO_ATTACH_FILTER
        return buf
    except Exception:
        return None

keep_filter = attach_filter()
try:
    s.setsockopt(socket.SOL_SOCKET, 33, 1 << 23)  # SO_RCVBUFFORCE: a burst of answers waits whole
except OSError:
    pass
s.setblocking(False)

counts, unseen = {}, {}
CAP = 10 ** 6

def note(kind, host, port):
    key = (kind, host, port)
    if key in counts or len(counts) < 256:
        counts[key] = min(counts.get(key, 0) + 1, CAP)
    else:
        unseen[kind] = min(unseen.get(kind, 0) + 1, CAP)

def walk6(d, off, nh):
    # Skips IPv6 extension headers: (offset, next header), or None for a later fragment or a cut header.
    for _ in range(8):
        if nh in (0, 43, 60):
            if len(d) < off + 2:
                return None
            nh, off = d[off], off + (d[off + 1] + 1) * 8
        elif nh == 51:
            if len(d) < off + 2:
                return None
            nh, off = d[off], off + (d[off + 1] + 2) * 4
        elif nh == 44:
            if len(d) < off + 8 or (struct.unpack('>H', d[off + 2:off + 4])[0] >> 3) != 0:
                return None
            nh, off = d[off], off + 8
        else:
            return off, nh
    return None

def udp_destination(inner):
    # The datagram an ICMP error quotes: (address, port) it was sent to, when it was UDP.
    if len(inner) < 1:
        return None
    v = inner[0] >> 4
    if v == 4:
        ihl = (inner[0] & 15) * 4
        if ihl < 20 or len(inner) < ihl + 4 or inner[9] != 17:
            return None
        return socket.inet_ntop(socket.AF_INET, inner[16:20]), struct.unpack('>H', inner[ihl + 2:ihl + 4])[0]
    if v == 6 and len(inner) >= 40:
        w = walk6(inner, 40, inner[6])
        if not w or w[1] != 17 or len(inner) < w[0] + 4:
            return None
        return socket.inet_ntop(socket.AF_INET6, inner[24:40]), struct.unpack('>H', inner[w[0] + 2:w[0] + 4])[0]
    return None

def refused_from(d, src, off, family):
    # A reset to a SYN: RST and ACK, no SYN or FIN, sequence number zero.
    if len(d) < off + 14:
        return
    flags = d[off + 13]
    if flags & 0x17 == 0x14 and d[off + 4:off + 8] == b'\0\0\0\0':
        note('connect', socket.inet_ntop(family, src), struct.unpack('>H', d[off:off + 2])[0])

def packet(d, pkttype):
    if pkttype == PACKET_OUTGOING or len(d) < 20:
        return
    v = d[0] >> 4
    if v == 4:
        ihl = (d[0] & 15) * 4
        if ihl < 20 or len(d) < ihl + 8 or struct.unpack('>H', d[6:8])[0] & 0x1fff:
            return
        if d[9] == 6:
            refused_from(d, d[12:16], ihl, socket.AF_INET)
        elif d[9] == 1 and d[ihl] == 3 and d[ihl + 1] == 3:
            u = udp_destination(d[ihl + 8:])
            if u and u[1] != 53:
                note('udp', u[0], u[1])
    elif v == 6 and len(d) >= 48:
        if d[6] == 6:
            refused_from(d, d[8:24], 40, socket.AF_INET6)
        elif d[6] == 58 and d[40] == 1 and d[41] == 4:
            u = udp_destination(d[48:])
            if u and u[1] != 53:
                note('udp', u[0], u[1])

def drain():
    # Reads what is queued (at most 4096 packets); returns how many.
    for n in range(4096):
        try:
            d, a = s.recvfrom(256)
        except (BlockingIOError, InterruptedError):
            return n
        try:
            packet(d, a[2])
        except Exception:
            pass
    return 4096

def flush():
    lines = [json.dumps({'kind': k, 'host': h, 'port': p, 'count': n}) for (k, h, p), n in counts.items()]
    lines += [json.dumps({'kind': k, 'host': '?', 'port': 0, 'count': n}) for k, n in unseen.items()]
    counts.clear()
    unseen.clear()
    if lines:
        sys.stdout.write('\n'.join(lines) + '\n')
        sys.stdout.flush()

last = 0.0
while True:
    wait = None if not counts and not unseen else max(0.0, last + 0.05 - time.monotonic())
    ready = select.select([s, 0], [], [], wait)[0]
    if s in ready:
        drain()
    if 0 in ready and not os.read(0, 4096):
        while drain() == 4096:
            pass
        flush()
        break
    if (counts or unseen) and time.monotonic() - last >= 0.05:
        flush()
        last = time.monotonic()
`
