//! `_core.BoardGame`: the board games of [`crate::board`] (Cram, Node Kayles, Arc Kayles, Chomp),
//! a position's value by the pruned search of [`crate::nimber_search`], run without the GIL and
//! polled for Ctrl-C. The search's table (a fixed memory budget) lives as long as the game, so
//! what one call learns speeds up the next (the options of a position, then their values).
//! A `SearchWatch` reads a running search (its tables' fill, the root's progress) from the
//! progress callback, and streams its tables to a checkpoint file that the Python layer names,
//! writes atomically and reads back (`checkpoint_header`, `BoardGame.load_checkpoint`).

use super::convert::{in_callback, InCallback};
use super::leaked::Leaked;
use super::{reentrancy_error, ErrSlot, PyControl};
use crate::board::{
    tabulate_regions, ArcKayles, Board, Chomp, Cram, NodeKayles, RegionTable, SimpleGraph,
};
use crate::control::Control;
use crate::error::{Error, Result};
use crate::nimber_search::{read_header, FileError, Header, Search, SearchStats, Split, Watch};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::{Mutex, TryLockError};
use std::time::Duration;

/// What a board game must say beyond [`Board`]: which sets of cells are its positions.
trait Positions: Board + Send + 'static {
    /// `pos` when it is a position of the game; else [`Error::Invalid`] saying why not.
    fn check(&self, pos: u128) -> Result<u128>;
    /// The position where no move has been made yet.
    fn start(&self) -> u128;
}

impl Positions for Cram {
    fn check(&self, pos: u128) -> Result<u128> {
        if pos & !self.empty() != 0 {
            return Err(Error::Invalid(format!(
                "cell {} is not on the {} x {} board",
                (pos & !self.empty()).trailing_zeros(),
                self.grid().rows(),
                self.grid().cols()
            )));
        }
        Ok(pos)
    }
    fn start(&self) -> u128 {
        self.empty()
    }
}

impl Positions for NodeKayles {
    fn check(&self, pos: u128) -> Result<u128> {
        self.graph().check(pos)
    }
    fn start(&self) -> u128 {
        NodeKayles::start(self)
    }
}

impl Positions for ArcKayles {
    fn check(&self, pos: u128) -> Result<u128> {
        self.graph().check(pos)
    }
    fn start(&self) -> u128 {
        ArcKayles::start(self)
    }
}

impl Positions for Chomp {
    fn check(&self, pos: u128) -> Result<u128> {
        // A position is a staircase of rows, each no longer than the one above, with the
        // poisoned square: exactly the sets that its own row lengths rebuild.
        let lengths = self.row_lengths(pos);
        match self.position(&lengths) {
            Ok(p) if p == pos => Ok(pos),
            _ => Err(Error::Invalid(
                "a Chomp position keeps the poisoned top left square, and each row of squares \
                 starts at the left and is no longer than the row above"
                    .to_string(),
            )),
        }
    }
    fn start(&self) -> u128 {
        Chomp::start(self)
    }
}

/// The questions the Python layer asks a game, whatever its kind.
trait Solve: Send + Sync {
    fn check(&self, pos: u128) -> Result<u128>;
    fn start(&self) -> u128;
    fn options(&self, pos: u128) -> Vec<u128>;
    fn components(&self, pos: u128) -> Vec<u128>;
    fn key(&self, component: u128) -> u128;
    fn regions(&self, starts: &[u128], limit: usize, ctl: &dyn Control) -> Result<RegionTable>;
    fn value(&mut self, pos: u128, ctl: &dyn Control, pool: Pool<'_>) -> Result<u32>;
    fn is_zero(&mut self, pos: u128, ctl: &dyn Control, pool: Pool<'_>) -> Result<bool>;
    fn stats(&self) -> SearchStats;
    fn watch(&self) -> Watch;
    fn load(
        &mut self,
        file: PyFile,
        header: &Header,
        ctl: &dyn Control,
    ) -> std::result::Result<u64, FileError>;
}

/// The threads of a search: rayon's global pool (`None`), or a pool of its own.
type Pool<'p> = Option<&'p rayon::ThreadPool>;

/// A board and the search over it, with its table.
struct Solver<B: Positions> {
    /// Declared first: it borrows the two below, and must be dropped before them.
    search: Search<'static, B>,
    board: Leaked<B>,
}

impl<B: Positions> Solver<B> {
    /// The search takes `budget` bytes. (What a game knows without search, Cram's symmetry
    /// strategies, the search asks of the board itself: [`Board::known`].)
    fn new(board: B, budget: u64) -> Result<Self> {
        let board = Leaked::new(Box::new(board));
        // SAFETY: the board goes only to `search`, declared before it.
        let b = unsafe { board.get() };
        Ok(Solver {
            search: Search::new(b, budget)?,
            board,
        })
    }

    fn board(&self) -> &B {
        // SAFETY: borrowed for no longer than `self`, which owns the board.
        unsafe { self.board.get() }
    }
}

impl<B: Positions> Solve for Solver<B> {
    fn check(&self, pos: u128) -> Result<u128> {
        self.board().check(pos)
    }
    fn start(&self) -> u128 {
        self.board().start()
    }
    fn options(&self, pos: u128) -> Vec<u128> {
        let mut out = Vec::new();
        self.board().options(pos, &mut out);
        out
    }
    fn components(&self, pos: u128) -> Vec<u128> {
        let mut out = Vec::new();
        self.board().components(pos, &mut out);
        out
    }
    fn key(&self, component: u128) -> u128 {
        self.board().key(component)
    }
    fn regions(&self, starts: &[u128], limit: usize, ctl: &dyn Control) -> Result<RegionTable> {
        tabulate_regions(self.board(), starts, limit, ctl)
    }
    fn value(&mut self, pos: u128, ctl: &dyn Control, pool: Pool<'_>) -> Result<u32> {
        self.search.value_threads(pos, ctl, pool, Split::default())
    }
    fn is_zero(&mut self, pos: u128, ctl: &dyn Control, pool: Pool<'_>) -> Result<bool> {
        self.search
            .is_zero_threads(pos, ctl, pool, Split::default())
    }
    fn stats(&self) -> SearchStats {
        self.search.stats()
    }
    fn watch(&self) -> Watch {
        self.search.watch()
    }
    fn load(
        &mut self,
        file: PyFile,
        header: &Header,
        ctl: &dyn Control,
    ) -> std::result::Result<u64, FileError> {
        self.search.load_checkpoint(file, header, ctl)
    }
}

/// A board game of [`crate::board`], its positions as sets of free cells (remaining vertices)
/// in Python ints, bit `i` for cell `i` (`r * cols + c` on a board).
#[pyclass(module = "grundy._core", frozen)]
pub struct BoardGame {
    kind: String,
    memory: u64,
    solver: Mutex<Box<dyn Solve>>,
}

/// The game of `kind`: a board of `rows x cols` for Cram and Chomp; for the graph games the
/// `rows x cols` grid graph, or the graph on `n` vertices with `edges` when given.
fn make(
    kind: &str,
    memory: u64,
    rows: usize,
    cols: usize,
    n: usize,
    edges: Option<Vec<(usize, usize)>>,
) -> Result<Box<dyn Solve>> {
    let graph = || match &edges {
        Some(e) => SimpleGraph::new(n, e),
        None => SimpleGraph::grid(rows, cols),
    };
    Ok(match kind {
        "cram" => Box::new(Solver::new(Cram::new(rows, cols)?, memory)?),
        "chomp" => Box::new(Solver::new(Chomp::new(rows, cols)?, memory)?),
        "node_kayles" => Box::new(Solver::new(NodeKayles::new(graph()?), memory)?),
        "arc_kayles" => Box::new(Solver::new(ArcKayles::new(graph()?), memory)?),
        _ => {
            return Err(Error::Invalid(format!(
                "no board game {kind:?}: cram, chomp, node_kayles or arc_kayles"
            )))
        }
    })
}

impl BoardGame {
    /// Runs `f` on the solver without the GIL, reporting to `progress(nodes, 0)`, with the
    /// pool of `threads` (None: rayon's global pool, every core).
    ///
    /// A call from this game's own progress function is refused (it would wait for itself);
    /// one from another thread waits for the search under way, Ctrl-C still heard.
    fn with<R: Send>(
        slf: &Bound<'_, Self>,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
        f: impl FnOnce(&mut dyn Solve, &dyn Control, Pool<'_>) -> Result<R> + Send,
    ) -> PyResult<R> {
        let pool = threads.map(super::pool).transpose()?;
        let py = slf.py();
        let id = slf.as_ptr() as usize;
        let me = slf.get();
        let mut solver = loop {
            match me.solver.try_lock() {
                Ok(s) => break s,
                Err(TryLockError::Poisoned(p)) => break p.into_inner(),
                Err(TryLockError::WouldBlock) => {}
            }
            if in_callback(id) {
                return Err(reentrancy_error(
                    "a board game's progress function asked the same game for a value while \
                     it was searching",
                ));
            }
            py.detach(|| std::thread::sleep(Duration::from_millis(1)));
            py.check_signals()?;
        };
        let _busy = InCallback::enter(id);
        let s: &mut dyn Solve = &mut **solver;
        let pool = pool.as_deref();
        PyControl::run(py, ErrSlot::default(), progress, |ctl| f(s, ctl, pool))
    }
}

#[pymethods]
impl BoardGame {
    #[new]
    #[pyo3(signature = (kind, memory, rows=0, cols=0, n=0, edges=None))]
    fn new(
        kind: &str,
        memory: u64,
        rows: usize,
        cols: usize,
        n: usize,
        edges: Option<Vec<(usize, usize)>>,
    ) -> PyResult<Self> {
        Ok(BoardGame {
            kind: kind.to_string(),
            memory,
            solver: Mutex::new(make(kind, memory, rows, cols, n, edges)?),
        })
    }

    /// `cram`, `chomp`, `node_kayles` or `arc_kayles`.
    #[getter]
    fn kind(&self) -> &str {
        &self.kind
    }

    /// The memory budget of the search's table, in bytes.
    #[getter]
    fn memory(&self) -> u64 {
        self.memory
    }

    /// The position before any move: every cell free, every vertex there.
    #[getter]
    fn start(slf: &Bound<'_, Self>) -> PyResult<u128> {
        Self::with(slf, None, None, |s, _, _| Ok(s.start()))
    }

    /// `pos` when it is a position of the game (ArgumentError saying why not otherwise).
    fn check(slf: &Bound<'_, Self>, pos: u128) -> PyResult<u128> {
        Self::with(slf, None, None, |s, _, _| s.check(pos))
    }

    /// The options of `pos`, in the board's order (each once).
    fn options(slf: &Bound<'_, Self>, pos: u128) -> PyResult<Vec<u128>> {
        Self::with(slf, None, None, |s, _, _| distinct_options(s, pos))
    }

    /// The independent components of `pos` (regions no move connects).
    fn components(slf: &Bound<'_, Self>, pos: u128) -> PyResult<Vec<u128>> {
        Self::with(slf, None, None, |s, _, _| Ok(s.components(s.check(pos)?)))
    }

    /// G(pos), by the pruned search without the GIL; `progress(nodes, 0)` every 50 ms or so.
    /// On `threads` threads at most (None: every core); a large board's search shares its
    /// first levels among them, a small one takes one.
    #[pyo3(signature = (pos, progress=None, threads=None))]
    fn value(
        slf: &Bound<'_, Self>,
        pos: u128,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
    ) -> PyResult<u32> {
        Self::with(slf, progress, threads, |s, ctl, pool| {
            s.value(s.check(pos)?, ctl, pool)
        })
    }

    /// Whether `pos` is a P-position (G = 0), which may take far less search than its value.
    #[pyo3(signature = (pos, progress=None, threads=None))]
    fn is_zero(
        slf: &Bound<'_, Self>,
        pos: u128,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
    ) -> PyResult<bool> {
        Self::with(slf, progress, threads, |s, ctl, pool| {
            s.is_zero(s.check(pos)?, ctl, pool)
        })
    }

    /// The options of `pos` worth `target` (each once, in the board's order).
    #[pyo3(signature = (pos, target, progress=None, threads=None))]
    fn winning(
        slf: &Bound<'_, Self>,
        pos: u128,
        target: u32,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
    ) -> PyResult<Vec<u128>> {
        Self::with(slf, progress, threads, |s, ctl, pool| {
            let mut out = Vec::new();
            for o in distinct_options(s, pos)? {
                let hit = if target == 0 {
                    s.is_zero(o, ctl, pool)?
                } else {
                    s.value(o, ctl, pool)? == target
                };
                if hit {
                    out.push(o);
                }
            }
            Ok(out)
        })
    }

    /// The key of a component (equal for components that are the same game).
    fn key(slf: &Bound<'_, Self>, component: u128) -> PyResult<u128> {
        Self::with(slf, None, None, |s, _, _| Ok(s.key(s.check(component)?)))
    }

    /// The starts and every component reachable from them, one entry per key, by size, for the
    /// misère search: `(opt_start, part_start, parts, keys, roots)` (see
    /// [`crate::board::RegionTable`]); SearchLimitError past `limit` entries.
    #[allow(clippy::type_complexity)]
    #[pyo3(signature = (starts, limit, progress=None))]
    fn regions(
        slf: &Bound<'_, Self>,
        starts: Vec<u128>,
        limit: usize,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<(Vec<u64>, Vec<u64>, Vec<u64>, Vec<u128>, Vec<u64>)> {
        Self::with(slf, progress, None, |s, ctl, _| {
            for &p in &starts {
                s.check(p)?;
            }
            let t = s.regions(&starts, limit, ctl)?;
            Ok((t.opt_start, t.part_start, t.parts, t.keys, t.roots))
        })
    }

    /// A watch on the search, to read while it runs (from the progress function) and to write
    /// its tables to a checkpoint.
    fn watch(slf: &Bound<'_, Self>) -> PyResult<SearchWatch> {
        let w = Self::with(slf, None, None, |s, _, _| Ok(s.watch()))?;
        Ok(SearchWatch(w))
    }

    /// Puts the entries of the checkpoint in `file` (a binary file object, read from its start)
    /// into the tables; `header` is what `checkpoint_header` read of it, the caller having
    /// checked its record. The entries read; ValueError for a file that is not right
    /// (the tables are then emptied), OSError when reading fails.
    fn load_checkpoint(
        slf: &Bound<'_, Self>,
        file: Py<PyAny>,
        header: (u32, Vec<u8>, u64),
    ) -> PyResult<u64> {
        let (key_bytes, meta, entries) = header;
        let header = Header {
            key_bytes,
            meta,
            entries,
        };
        Self::with(slf, None, None, |s, ctl, _| {
            stopped(s.load(PyFile(file), &header, ctl))
        })?
        .map_err(file_error)
    }

    /// The search's counters: nodes, table_entries, table_capacity, table_bytes.
    fn stats<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let s = Self::with(slf, None, None, |s, _, _| Ok(s.stats()))?;
        let d = PyDict::new(slf.py());
        d.set_item("nodes", s.nodes)?;
        d.set_item("table_entries", s.table_entries)?;
        d.set_item("table_capacity", s.table_capacity)?;
        d.set_item("table_bytes", s.table_bytes)?;
        Ok(d)
    }
}

/// The options of `pos` (checked), each once, in the board's order.
fn distinct_options(s: &dyn Solve, pos: u128) -> Result<Vec<u128>> {
    let mut out = s.options(s.check(pos)?);
    let mut seen = std::collections::HashSet::new();
    out.retain(|o| seen.insert(*o));
    Ok(out)
}

/// Bytes of memory available to new allocations now (what the memory checks allow), if known;
/// ArgumentError when `GRUNDY_MEMORY_LIMIT` is not a number of bytes.
#[pyfunction]
pub(super) fn memory_available() -> PyResult<Option<u64>> {
    crate::memory::limit()?;
    Ok(crate::memory::available())
}

/// A watch on a board game's search ([`Watch`]): readable while the search runs, from its progress
/// function, without waiting for it.
#[pyclass(module = "grundy._core", frozen)]
pub struct SearchWatch(Watch);

#[pymethods]
impl SearchWatch {
    /// `(entries, capacity, bytes)` of the search's tables now.
    fn table(&self) -> (u64, u64, u64) {
        (self.0.entries(), self.0.capacity(), self.0.bytes())
    }

    /// The question the search asks of the root now (see [`crate::nimber_search::RootProgress`]):
    /// `cells`, `options`, `questions`, `asked` (bits), `settled`, `values` (counts by value),
    /// `outside`; None before a search began.
    fn root<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let r = self.0.root();
        if r.cells == 0 {
            return Ok(None);
        }
        let d = PyDict::new(py);
        d.set_item("cells", r.cells)?;
        d.set_item("options", r.options)?;
        d.set_item("questions", r.questions)?;
        d.set_item("asked", r.asked)?;
        d.set_item("settled", r.settled)?;
        d.set_item("values", r.values)?;
        d.set_item("outside", r.outside)?;
        Ok(Some(d))
    }

    /// Writes the tables to `file` (a binary file object, by its `write`) after the record
    /// `meta`, without the GIL but for each block; the entries written. The search may run
    /// meanwhile (its other threads): see [`Watch::write_checkpoint`].
    fn write(&self, py: Python<'_>, file: Py<PyAny>, meta: Vec<u8>) -> PyResult<u64> {
        let w = PyFile(file);
        let r = py.detach(|| self.0.write_checkpoint(w, &meta));
        r.map_err(|e| io_error(py, e))
    }
}

/// The header of the checkpoint in `file` (a binary file object), the file checked whole:
/// `(key_bytes, record, entries)`; ValueError saying what is wrong with one that is not a whole
/// checkpoint, OSError when reading fails.
#[pyfunction]
pub(super) fn checkpoint_header(py: Python<'_>, file: Py<PyAny>) -> PyResult<(u32, Vec<u8>, u64)> {
    let f = PyFile(file);
    let h = PyControl::run(py, ErrSlot::default(), None, |ctl| {
        stopped(read_header(f, ctl))
    })?
    .map_err(file_error)?;
    Ok((h.key_bytes, h.meta, h.entries))
}

/// A Python binary file object read and written from Rust (each call taking the GIL).
struct PyFile(Py<PyAny>);

/// A Python exception as an I/O error, kept whole: [`io_error`] raises it again as it was (a
/// KeyboardInterrupt that came during a file's `read` stays one).
fn py_io(e: PyErr) -> std::io::Error {
    std::io::Error::other(e)
}

impl std::io::Write for PyFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        Python::attach(|py| {
            let n = self.0.call_method1(py, "write", (PyBytes::new(py, buf),));
            n.and_then(|n| n.extract::<Option<usize>>(py))
                .map(|n| n.unwrap_or(buf.len()))
                .map_err(py_io)
        })
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Python::attach(|py| self.0.call_method0(py, "flush").map(|_| ()).map_err(py_io))
    }
}

impl std::io::Read for PyFile {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        Python::attach(|py| {
            let b = self
                .0
                .call_method1(py, "read", (buf.len(),))
                .map_err(py_io)?;
            let b: Vec<u8> = b.extract(py).map_err(py_io)?;
            let n = b.len().min(buf.len());
            buf[..n].copy_from_slice(&b[..n]);
            Ok(n)
        })
    }
}

impl std::io::Seek for PyFile {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        let (off, whence) = match pos {
            std::io::SeekFrom::Start(n) => (n as i64, 0),
            std::io::SeekFrom::Current(n) => (n, 1),
            std::io::SeekFrom::End(n) => (n, 2),
        };
        Python::attach(|py| {
            let r = self
                .0
                .call_method1(py, "seek", (off, whence))
                .map_err(py_io)?;
            r.extract::<u64>(py).map_err(py_io)
        })
    }
}

fn io_error(_py: Python<'_>, e: std::io::Error) -> PyErr {
    let text = e.to_string();
    match e.into_inner().map(|inner| inner.downcast::<PyErr>()) {
        Some(Ok(py_err)) => *py_err,
        _ => PyOSError::new_err(text),
    }
}

/// A read the control stopped as the core's error (KeyboardInterrupt once raised); other
/// outcomes as they are.
fn stopped<T>(r: std::result::Result<T, FileError>) -> Result<std::result::Result<T, FileError>> {
    match r {
        Err(FileError::Stopped(e)) => Err(e),
        r => Ok(r),
    }
}

fn file_error(e: FileError) -> PyErr {
    match e {
        FileError::Invalid(why) => PyValueError::new_err(why),
        FileError::Io(e) => Python::attach(|py| io_error(py, e)),
        FileError::Stopped(e) => PyOSError::new_err(e.to_string()), // taken out by `stopped`
    }
}
