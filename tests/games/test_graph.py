"""Explicit game graphs: values against a naive Python computation, every way in, bad input, cycles."""

import doctest
import os
import pickle
import random
import signal
import subprocess
import sys
import textwrap
import time

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr
import grundy.games.graph.game


def naive_values(options: dict) -> dict:
    """Grundy values by the definition, memoised recursion over {vertex: [options]}."""
    g: dict = {}

    def value(u):
        if u not in g:
            seen = {value(v) for v in options[u]}
            g[u] = next(x for x in range(len(seen) + 1) if x not in seen)
        return g[u]

    for u in options:
        value(u)
    return g


def options_of(n, edges):
    opts = {u: [] for u in range(n)}
    for u, v in edges:
        opts[u].append(v)
    return opts


@st.composite
def dags(draw, max_n=30):
    """A random DAG on 0..n-1 whose vertex order is hidden by a random permutation."""
    n = draw(st.integers(1, max_n))
    perm = draw(st.permutations(range(n)))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=4 * n))
    edges = [(perm[max(a, b)], perm[min(a, b)]) for a, b in pairs if a != b]
    return n, edges


@settings(max_examples=150, deadline=None)
@given(dags())
def test_random_dags_match_naive(dag):
    n, edges = dag
    want = naive_values(options_of(n, edges))
    g = gr.GameGraph(edges, num_vertices=n)
    assert g.values().tolist() == [want[u] for u in range(n)]
    src = np.array([u for u, _ in edges], dtype=np.int64)
    dst = np.array([v for _, v in edges], dtype=np.int64)
    for dtype in (np.int64, np.int32, np.uint32, np.uint64, np.int16):
        a = gr.GameGraph.from_arrays(src.astype(dtype), dst.astype(dtype), num_vertices=n)
        assert a.values().tolist() == [want[u] for u in range(n)]
    assert all(g.value(u) == want[u] for u in range(n))


@settings(max_examples=80, deadline=None)
@given(dags())
def test_labels_dict_and_networkx(dag):
    n, edges = dag
    want = naive_values(options_of(n, edges))
    name = [f"v{u}" for u in range(n)]
    as_dict = {name[u]: [name[v] for v in opts] for u, opts in options_of(n, edges).items()}
    by_dict = gr.GameGraph(as_dict)
    assert by_dict.values_by_label() == {name[u]: want[u] for u in range(n)}
    first_seen = list(dict.fromkeys(x for k, opts in as_dict.items() for x in (k, *opts)))
    assert by_dict.labels == first_seen
    d = nx.DiGraph()
    d.add_nodes_from((u, "pos") for u in range(n))  # tuple labels
    d.add_edges_from(((u, "pos"), (v, "pos")) for u, v in edges)
    by_nx = gr.GameGraph.from_networkx(d)
    assert by_nx.values_by_label() == {(u, "pos"): want[u] for u in range(n)}
    for u in range(n):
        assert sorted(by_nx.options((u, "pos"))) == sorted({(v, "pos") for v in options_of(n, edges)[u]})


def test_larger_random_graph_uses_parallel_layers():
    rng = np.random.default_rng(7)
    n, m = 50_000, 250_000
    hi = rng.integers(1, n, m)
    lo = (rng.random(m) * hi).astype(np.int64)
    perm = rng.permutation(n)
    g = gr.GameGraph.from_arrays(perm[hi], perm[lo], num_vertices=n)
    # Reference: vertices in increasing original order, every edge goes down.
    opts = [[] for _ in range(n)]
    for a, b in zip(hi.tolist(), lo.tolist(), strict=True):
        opts[a].append(b)
    ref = [0] * n
    for u in range(n):
        seen = {ref[v] for v in opts[u]}
        ref[u] = next(x for x in range(len(seen) + 1) if x not in seen)
    got = g.values()
    assert got[perm].tolist() == ref
    assert g.values(threads=1).tolist() == got.tolist()
    one = gr.GameGraph.from_arrays(perm[hi], perm[lo], num_vertices=n)
    assert one.values(threads=1).tolist() == got.tolist()


def test_divisor_game_as_a_graph():
    n = 3000
    edges = [(k, k - d) for k in range(2, n) for d in range(1, k) if k % d == 0]
    want = gr.Subtraction.proper_divisors().values(n).tolist()
    assert gr.GameGraph(edges, num_vertices=n).values().tolist() == want
    src, dst = np.array(edges).T
    assert gr.GameGraph.from_arrays(src, dst, num_vertices=n).values().tolist() == want
    as_dict = {k: [k - d for d in range(1, k) if k % d == 0] for k in range(n)}
    assert gr.GameGraph(as_dict).values().tolist() == want


def test_nim_heaps_as_vertices_need_wide_values():
    n = 300  # heap k: options 0..k-1, value k (past 255, past 64 options per vertex)
    g = gr.GameGraph({k: range(k) for k in range(n)})
    v = g.values()
    assert v.dtype == np.uint16
    assert v.tolist() == list(range(n))


def test_isolated_vertices_and_ids():
    g = gr.GameGraph([(1, 0), (3, 1)], num_vertices=6)
    assert g.num_vertices == 6 and g.num_edges == 2
    assert g.values().tolist() == [0, 1, 0, 0, 0, 0]
    assert g.labels == list(range(6))
    assert gr.GameGraph([(1, 0), (3, 1)]).num_vertices == 4  # largest id + 1
    assert gr.GameGraph([], num_vertices=3).values().tolist() == [0, 0, 0]
    assert gr.GameGraph([]).values().tolist() == []
    with_keys = gr.GameGraph({"a": ["b"], "lonely": [], "b": []})
    assert with_keys.values_by_label() == {"a": 1, "lonely": 0, "b": 0}
    assert gr.GameGraph({0: [], 5: [0]}).num_vertices == 6
    assert gr.GameGraph.from_arrays([], [], num_vertices=2).values().tolist() == [0, 0]


def test_labels_first_seen_order_and_lookups():
    g = gr.GameGraph([("c", "a"), ("b", "c"), ("b", "a")])
    assert g.labels == ["c", "a", "b"]
    assert g.vertex("b") == 2 and g.label(2) == "b"
    assert g.values().tolist() == [1, 0, 2]
    assert g.value("b") == 2
    assert g.options("b") == ["c", "a"]
    assert "a" in g and "z" not in g and [1] not in g
    with pytest.raises(KeyError, match="'z'"):
        g.value("z")
    with pytest.raises(IndexError):
        g.label(3)
    ints = gr.GameGraph([(2, 0)])
    with pytest.raises(KeyError):
        ints.value(3)
    with pytest.raises(KeyError):
        ints.value("0")
    assert repr(g) == "GameGraph(num_vertices=3, num_edges=3, labels=['c', 'a', 'b'])"
    assert repr(ints) == "GameGraph(num_vertices=3, num_edges=1)"
    assert gr.GameGraph([(0, 1), (0, 1)]).options(0) == [1]  # repeated edge, one option


def test_networkx_integer_nodes():
    d = nx.DiGraph([(2, 1), (1, 0)])
    d.add_node(3)
    g = gr.GameGraph.from_networkx(d)
    assert g.labels == [0, 1, 2, 3] and g.values().tolist() == [0, 1, 0, 0]
    sparse = gr.GameGraph.from_networkx(nx.DiGraph([(10, 5)]))  # not 0..V-1: numbered in node order
    assert sparse.num_vertices == 2 and sparse.values_by_label() == {10: 1, 5: 0}
    multi = gr.GameGraph.from_networkx(nx.MultiDiGraph([("a", "b"), ("a", "b")]))
    assert multi.num_edges == 2 and multi.value("a") == 1


def test_values_are_cached_copies():
    g = gr.GameGraph([(1, 0)])
    v = g.values()
    v[:] = 7
    assert g.values().tolist() == [0, 1]


def test_cycle_names_its_vertices():
    edges = [("d", "a"), ("a", "b"), ("b", "c"), ("c", "a"), ("c", "t")]
    with pytest.raises(ValueError, match="cycle") as info:
        gr.GameGraph(edges).values()
    e = info.value
    assert isinstance(e, gr.CycleError)
    assert sorted(e.cycle) == ["a", "b", "c"]
    for i, u in enumerate(e.cycle):
        assert (u, e.cycle[(i + 1) % len(e.cycle)]) in edges
    for label in "abc":
        assert repr(label) in str(e)
    assert "'d'" not in str(e) and "'t'" not in str(e)
    again = pickle.loads(pickle.dumps(e))
    assert again.cycle == e.cycle and str(again) == str(e)


def test_self_loop_and_long_cycle():
    with pytest.raises(gr.CycleError, match="7 -> 7") as info:
        gr.GameGraph([(7, 7)], num_vertices=9).values()
    assert info.value.cycle == [7]
    n = 1000
    ring = [(u, (u + 1) % n) for u in range(n)] + [(n + u, u) for u in range(50)]
    with pytest.raises(gr.CycleError, match=r"\.\.\. .*1000 vertices") as info:
        gr.GameGraph(ring).values()
    assert sorted(info.value.cycle) == list(range(n))


def test_cycle_from_networkx_uses_labels():
    d = nx.DiGraph([("x", ("y", 1)), (("y", 1), "x")])
    with pytest.raises(ValueError, match=r"\('y', 1\)"):
        gr.GameGraph.from_networkx(d).values()


@pytest.mark.parametrize(
    "make, exc, match",
    [
        (lambda: gr.GameGraph([(0, -1)], num_vertices=3), ValueError, "negative"),
        (lambda: gr.GameGraph([(0, 3)], num_vertices=3), ValueError, "not below num_vertices = 3"),
        (lambda: gr.GameGraph({5: []}, num_vertices=3), ValueError, "num_vertices = 3"),
        (lambda: gr.GameGraph([(0, 1), (-2, 0)]), ValueError, "negative"),
        (lambda: gr.GameGraph([("a", 1)], num_vertices=3), TypeError, "integer ids"),
        (lambda: gr.GameGraph([(0, 1, 2)]), TypeError, "pair"),
        (lambda: gr.GameGraph([0, 1]), TypeError, "pair"),
        (lambda: gr.GameGraph([([1], "a")]), TypeError, "hashable"),
        (lambda: gr.GameGraph({"a": 3}), TypeError, "options of vertex 'a'"),
        (lambda: gr.GameGraph(5), TypeError, "edges"),
        (lambda: gr.GameGraph("ab"), TypeError, "edges"),
        (lambda: gr.GameGraph([], num_vertices=-1), ValueError, "non-negative"),
        (lambda: gr.GameGraph([(0, 2**70)]), ValueError, "too large"),
        (lambda: gr.GameGraph(np.zeros((3, 3), dtype=int)), TypeError, "shape"),
        (lambda: gr.GameGraph.from_arrays(np.array([0, 1]), np.array([1])), ValueError, "entries"),
        (lambda: gr.GameGraph.from_arrays(np.array([0.0]), np.array([1.0])), TypeError, "integer"),
        (lambda: gr.GameGraph.from_arrays(np.array([True]), np.array([False])), TypeError, "integer"),
        (lambda: gr.GameGraph.from_arrays(np.zeros((2, 2), int), np.zeros((2, 2), int)), ValueError, "1-d"),
        (lambda: gr.GameGraph.from_arrays(np.array([0, -1]), np.array([1, 0]), num_vertices=2), ValueError, "edge 1"),
        (lambda: gr.GameGraph.from_arrays(np.array([0]), np.array([2], np.uint64), num_vertices=2), ValueError, "2"),
        (lambda: gr.GameGraph.from_arrays(np.array([0], np.uint64), np.array([2**63], np.uint64)), MemoryError, "MiB"),
        (lambda: gr.GameGraph.from_arrays(*np.array([[0], [2**64 - 1]], np.uint64)), MemoryError, "any machine"),
        (lambda: gr.GameGraph.from_arrays(np.array([0], np.int64), np.array([2**63], np.uint64)), ValueError, "large"),
        (lambda: gr.GameGraph([], num_vertices=10**30), MemoryError, "any machine"),
        (lambda: gr.GameGraph.from_arrays(np.array([0]), np.array([10**15])), MemoryError, "MiB"),
        (lambda: gr.GameGraph.from_networkx(nx.Graph([(0, 1)])), ValueError, "directed"),
        (lambda: gr.GameGraph.from_networkx({0: [1]}), TypeError, "DiGraph"),
        (lambda: gr.GameGraph([(1, 0)]).values(threads=0), ValueError, "threads"),
        (lambda: gr.GameGraph([(1, 0)]).values(threads=1.5), TypeError, "threads"),
    ],
)
def test_bad_input(make, exc, match):
    with pytest.raises(exc, match=match):
        make()


def test_non_contiguous_and_mixed_dtype_arrays():
    src = np.array([[2, 9], [1, 9], [2, 9]])[:, 0]  # a strided view
    dst = np.array([1, 0, 0], dtype=np.uint32)
    assert gr.GameGraph.from_arrays(src, dst).values().tolist() == [0, 1, 2]


def test_docstring_examples():
    assert doctest.testmod(grundy.games.graph.game).failed == 0


def test_random_graph_with_cycles_detected_or_solved():
    rng = random.Random(3)
    for _ in range(200):
        n = rng.randint(1, 12)
        edges = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 2 * n))]
        d = nx.DiGraph(edges)
        d.add_nodes_from(range(n))
        g = gr.GameGraph(edges, num_vertices=n)
        if nx.is_directed_acyclic_graph(d):
            want = naive_values(options_of(n, edges))
            assert g.values().tolist() == [want[u] for u in range(n)]
        else:
            with pytest.raises(gr.CycleError) as info:
                g.values()
            c = info.value.cycle
            assert all(d.has_edge(u, c[(i + 1) % len(c)]) for i, u in enumerate(c))


def test_ctrl_c_interrupts_values():
    script = textwrap.dedent(
        """
        import sys, time
        import numpy as np
        import grundy as gr
        rng = np.random.default_rng(0)
        n, m = 4 * 10**6, 2 * 10**7
        hi = rng.integers(1, n, m, dtype=np.uint32)
        g = gr.GameGraph.from_arrays(hi, rng.integers(0, hi, dtype=np.uint32), num_vertices=n)
        print("start", flush=True)
        try:
            g.values()
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), flush=True)
            sys.exit(0)
        print("finished", time.monotonic(), flush=True)
        """
    )
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "start"
    time.sleep(0.1)
    sent = time.monotonic()
    os.kill(p.pid, signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    word, when = out.split()
    if word == "finished" and float(when) - sent < 0.2:
        pytest.skip("the values were computed before the signal could arrive (a fast machine)")
    assert word == "interrupted"
    assert float(when) - sent < 1.0


def test_a_cycle_of_one_vertex_says_vertex():
    # Issue 32, fault 9: "(1 vertices)".
    with pytest.raises(gr.CycleError) as info:
        gr.GameGraph({"a": ["a"]}).values()
    assert "(1 vertex)" in str(info.value) and "vertices" not in str(info.value)
    with pytest.raises(gr.CycleError, match=r"\(1 vertex\)"):
        gr._core.Graph.from_arrays(1, np.array([0], np.int64), np.array([0], np.int64)).values()
    assert "(2 vertices)" in str(gr.CycleError(["a", "b"]))


def test_lookups_are_not_found_errors():
    g = gr.GameGraph({"a": ["b"], "b": []})
    for call in (lambda: g.value("z"), lambda: g.vertex("z"), lambda: g.label(7)):
        with pytest.raises(gr.NotFoundError) as info:
            call()
        assert isinstance(info.value, (KeyError, IndexError))
