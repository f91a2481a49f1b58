#!/usr/bin/env python3
"""Counts the reachable states of the IPC assembly of old/ipc.c by explicit-state search.

Each component is modelled as a labelled transition system over its events (in the names the
composition IPC of ipc.lts gives them), with one state per control point between events (the
internal choice of a writer is a step of its own) and the values of its variables. The assembly
is their parallel composition: an event that two components share is taken by both at once.
The model mirrors old/ipc.c by hand; it measures the size of the concrete state space that the
predicate abstraction of subst has to cover, and is not part of subst.

    python3 statespace.py WQSIZE QSIZE      (e.g. 2 4, the default sizes of old/ipc.c)
"""
import sys
from collections import deque

EMPTY = 4


def writer(i):
    def step(s):
        pc, seq = s
        if pc == "top":
            return [(None, ("put", seq)), (None, ("lock", seq))]
        if pc == "put":
            return [(f"wq_put{i}.{seq}", ("ack", seq))]
        if pc == "ack":
            return [(f"wq_ack{i}.1", ("top", 1 - seq)), (f"wq_ack{i}.0", ("top", seq))]
        nxt = {"lock": ("lock", "grant"), "grant": ("grant", "flush"), "flush": ("flush", "flushed"),
               "flushed": ("flushed", "unlock"), "unlock": ("unlock", "top")}[pc]
        return [(f"{nxt[0]}{i}", (nxt[1], seq))]
    return ("top", 0), step


def write_queue(wq):
    def step(s):
        pc, l1, l2 = s
        out = []
        if pc == "idle":
            for b in (0, 1):
                ok = len(l1) + len(l2) < wq
                out.append((f"wq_put1.{b}", (("ack1", ok), l1 + (b,) if ok else l1, l2)))
                out.append((f"wq_put2.{b}", (("ack2", ok), l1, l2 + (b,) if ok else l2)))
            out.append(("flush1", ("w1", l1, l2)))
            out.append(("flush2", ("w2", l1, l2)))
        elif isinstance(pc, tuple):
            out.append((f"wq_{pc[0][:3]}{pc[0][3]}.{int(pc[1])}", ("idle", l1, l2)))
        elif pc in ("w1", "w2"):
            lane = l1 if pc == "w1" else l2
            if lane:
                out.append((f"ipc_write{pc[1]}.{lane[0]}", ("a" + pc, l1, l2)))
            else:
                out.append((f"flushed{pc[1]}", ("idle", l1, l2)))
        else:  # waiting for the ack of a write
            w = pc[2]
            popped = (l1[1:], l2) if w == "1" else (l1, l2[1:])
            out.append(("ipc_ack.1", ("w" + w,) + popped))
            out.append(("ipc_ack.0", ("w" + w, l1, l2)))
        return out
    return ("idle", (), ()), step


def lock_manager():
    def step(s):
        return {"idle": [("lock1", "g1"), ("lock2", "g2")], "g1": [("grant1", "u1")], "g2": [("grant2", "u2")],
                "u1": [("unlock1", "idle")], "u2": [("unlock2", "idle")]}[s]
    return "idle", step


def ipc_queue(qsize):
    def step(s):
        pc, q = s
        out = []
        if pc == "idle":
            for w in (1, 2):
                for b in (0, 1):
                    ok = len(q) < qsize
                    out.append((f"ipc_write{w}.{b}", (("ack", ok), q + ((w - 1) * 2 + b,) if ok else q)))
            out.append(("read1", ("d1", q)))
            out.append(("read2", ("d2", q)))
        elif isinstance(pc, tuple):
            out.append((f"ipc_ack.{int(pc[1])}", ("idle", q)))
        else:
            v = q[0] if q else EMPTY
            out.append((f"data{pc[1]}.{v}", ("idle", q[1:])))
        return out
    return ("idle", ()), step


def reader(r):
    def step(s):
        pc, last = s
        if pc == "top":
            return [(f"read{r}", ("wait", last))]
        return [(f"data{r}.{v}", ("top", last if v == EMPTY else v)) for v in range(5)]
    return ("top", 0), step


def main():
    wq, qs = int(sys.argv[1]), int(sys.argv[2])
    comps = [writer(1), writer(2), write_queue(wq), lock_manager(), ipc_queue(qs), reader(1), reader(2)]
    steps = [c[1] for c in comps]
    init = tuple(c[0] for c in comps)
    # Which two components share each event family (by index in comps).
    owners = {}
    def own(name, *ids):
        owners[name] = ids
    for i, w in ((1, 0), (2, 1)):
        for e in ("wq_put", "wq_ack"):
            own(f"{e}{i}", w, 2)
        own(f"flush{i}", w, 2); own(f"flushed{i}", w, 2)
        for e in ("lock", "grant", "unlock"):
            own(f"{e}{i}", w, 3)
        own(f"ipc_write{i}", 2, 4)
        own(f"read{i}", 4, 5 + i - 1); own(f"data{i}", 4, 5 + i - 1)
    own("ipc_ack", 2, 4)
    seen = {init}
    todo = deque([init])
    transitions = 0
    while todo:
        s = todo.popleft()
        moves = [steps[k](s[k]) for k in range(len(s))]
        for k, ms in enumerate(moves):
            for ev, t in ms:
                if ev is None:
                    n = s[:k] + (t,) + s[k + 1:]
                else:
                    a, b = owners[ev.split(".")[0]]
                    if k != a:
                        continue
                    partner = [t2 for ev2, t2 in moves[b] if ev2 == ev]
                    for t2 in partner:
                        n = list(s)
                        n[a] = t
                        n[b] = t2
                        n = tuple(n)
                        transitions += 1
                        if n not in seen:
                            seen.add(n)
                            todo.append(n)
                    continue
                transitions += 1
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
    # For comparison: the product of the components' own state counts, each explored alone
    # with every event enabled.
    product = 1
    for (start, step) in comps:
        alone, stack = {start}, [start]
        while stack:
            for _, t in step(stack.pop()):
                if t not in alone:
                    alone.add(t)
                    stack.append(t)
        product *= len(alone)
    print(f"WQSIZE={wq} QSIZE={qs}: {len(seen)} reachable states, {transitions} transitions "
          f"(product of the components' own state counts: {product})")


if __name__ == "__main__":
    main()
