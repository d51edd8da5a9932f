//! A search's tables in a file, to stop a long search and resume it: [`Watch::write_checkpoint`]
//! streams the entries out (from a running search too: each read whole through the slots'
//! seqlock, never torn), [`read_header`] checks a file, and [`Search::load_checkpoint`] puts its
//! entries back.
//!
//! The file (all integers little-endian):
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | `GRUNDYTT` |
//! | 4 | the format version, [`VERSION`] |
//! | 4 | the bytes of a key: 8 (a game whose keys fit 64 bits) or 16 |
//! | 4, then that many | the caller's record (the game, the position: JSON from the Python layer) |
//! | blocks | the small table's entries, then a block of 0, then the large table's, then a block of 0 |
//! | 8 | the entries written |
//! | 4 | the CRC-32 (IEEE) of every byte before it |
//! | 4 | `END.` |
//!
//! A block is a count of at most [`BLOCK`] entries (4 bytes) and the entries, each its key and
//! the contents of its data word (8 bytes: the values excluded, the value and the cost; see
//! `table.rs`). Nothing is held in memory but one block: a checkpoint never takes more than the
//! search's budget and a few KiB. The checksum is crc32fast's CRC-32 (the zip and PNG checksum,
//! computed with the processor's CRC instructions at several GB/s, a dependency of the
//! compression crates, kept by the rust-lang community): it catches every burst of corruption up
//! to 32 bits and all but one in 2^32 of the rest, which is what a damaged or half-written file
//! needs; it is no defence against a forged file.
//!
//! ```
//! use grundy::board::Cram;
//! use grundy::control::NoControl;
//! use grundy::nimber_search::{read_header, Search};
//! let cram = Cram::new(4, 4).unwrap();
//! let mut search = Search::new(&cram, 1 << 20).unwrap();
//! search.value(cram.empty(), &NoControl).unwrap();
//! let mut file = Vec::new();
//! let n = search.watch().write_checkpoint(&mut file, b"4 x 4").unwrap();
//! assert_eq!(read_header(&file[..], &NoControl).unwrap().meta, b"4 x 4");
//! let mut again = Search::new(&cram, 1 << 20).unwrap();
//! let header = read_header(&file[..], &NoControl).unwrap();
//! assert_eq!(again.load_checkpoint(std::io::Cursor::new(&file), &header, &NoControl).unwrap(), n);
//! assert_eq!(again.value(cram.empty(), &NoControl).unwrap(), 0);
//! assert_eq!(again.stats().nodes, 0); // all in the table
//! ```

use super::progress::Watch;
use super::table::AnyTable;
use super::Search;
use crate::board::Board;
use crate::control::{Control, Poller};
use std::fmt;
use std::io::{self, Read, Seek, SeekFrom, Write};

/// The first bytes of a checkpoint.
const MAGIC: &[u8; 8] = b"GRUNDYTT";
/// The last bytes.
const END: &[u8; 4] = b"END.";
/// The format version written (and the only one read).
pub const VERSION: u32 = 1;
/// The most entries in one block.
pub const BLOCK: usize = 4096;
/// The longest caller's record read: a damaged length must not ask for gigabytes.
const MAX_META: u32 = 1 << 24;

/// Why a checkpoint could not be read.
#[derive(Debug)]
pub enum FileError {
    /// Reading failed (the file, not its contents).
    Io(io::Error),
    /// The contents are not a checkpoint this search can use: what is wrong.
    Invalid(String),
    /// The control stopped the read (Ctrl-C): its error.
    Stopped(crate::error::Error),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io(e) => write!(f, "{e}"),
            FileError::Invalid(why) => write!(f, "{why}"),
            FileError::Stopped(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FileError {}

impl From<io::Error> for FileError {
    fn from(e: io::Error) -> FileError {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            FileError::Invalid("it ends too soon (truncated?)".into())
        } else {
            FileError::Io(e)
        }
    }
}

fn invalid<T>(why: impl Into<String>) -> Result<T, FileError> {
    Err(FileError::Invalid(why.into()))
}

/// What a checkpoint's header and trailer say (the file checked whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Bytes of a key: 8 or 16.
    pub key_bytes: u32,
    /// The caller's record.
    pub meta: Vec<u8>,
    /// Entries in the file.
    pub entries: u64,
}

/// A writer that keeps the CRC of what went through.
struct Crc<W> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Write for Crc<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<R: Read> Read for Crc<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
}

impl Watch {
    /// Writes the tables to `w` with the caller's record `meta` (see the module's notes); the
    /// entries written. The search may run meanwhile (its threads storing): the file then holds
    /// each entry as it was when read, some missed or some twice, never a torn one. `w` is
    /// written in blocks of at most 96 KiB (no buffer is needed around it) and flushed.
    ///
    /// # Errors
    /// `w`'s error (the file is then incomplete: write to a temporary file, renamed once whole).
    pub fn write_checkpoint<W: Write>(&self, w: W, meta: &[u8]) -> io::Result<u64> {
        let mut w = Crc {
            inner: w,
            crc: crc32fast::Hasher::new(),
        };
        let key_bytes = self.table.key_bytes();
        let meta_len = u32::try_from(meta.len())
            .ok()
            .filter(|&n| n <= MAX_META)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "record too long"))?;
        w.write_all(MAGIC)?;
        w.write_all(&VERSION.to_le_bytes())?;
        w.write_all(&(key_bytes as u32).to_le_bytes())?;
        w.write_all(&meta_len.to_le_bytes())?;
        w.write_all(meta)?;
        let mut total = 0u64;
        let mut block = Vec::with_capacity(4 + BLOCK * (key_bytes + 8));
        for t in [&self.small, &self.table] {
            let mut n = 0usize;
            let mut err = Ok(());
            block.clear();
            block.extend_from_slice(&[0; 4]);
            t.for_each(|key, contents| {
                if err.is_err() {
                    return;
                }
                block.extend_from_slice(&key.to_le_bytes()[..key_bytes]);
                block.extend_from_slice(&contents.to_le_bytes());
                n += 1;
                if n == BLOCK {
                    err = flush_block(&mut w, &mut block, &mut n, &mut total);
                }
            });
            err?;
            if n > 0 {
                flush_block(&mut w, &mut block, &mut n, &mut total)?;
            }
            w.write_all(&0u32.to_le_bytes())?;
        }
        w.write_all(&total.to_le_bytes())?;
        let crc = w.crc.clone().finalize();
        w.inner.write_all(&crc.to_le_bytes())?;
        w.inner.write_all(END)?;
        w.inner.flush()?;
        Ok(total)
    }
}

/// Writes a block of `n` entries (its count in its first 4 bytes), and starts the next.
fn flush_block<W: Write>(
    w: &mut W,
    block: &mut Vec<u8>,
    n: &mut usize,
    total: &mut u64,
) -> io::Result<()> {
    block[..4].copy_from_slice(&(*n as u32).to_le_bytes());
    w.write_all(block)?;
    *total += *n as u64;
    *n = 0;
    block.clear();
    block.extend_from_slice(&[0; 4]);
    Ok(())
}

fn u32_of<R: Read>(r: &mut R) -> io::Result<u32> {
    let mut b = [0; 4];
    r.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

/// Reads a checkpoint through, calling `entry(section, key, contents)` for each entry (section 0
/// the small table, 1 the large), and checks it whole: its magic, version, structure,
/// trailer, checksum and that nothing follows. `ctl` is polled between blocks: a file of
/// gigabytes takes seconds, and Ctrl-C must stop it as it stops a search.
fn scan<R: Read>(
    r: R,
    ctl: &dyn Control,
    mut entry: impl FnMut(usize, u128, u64) -> Result<(), FileError>,
) -> Result<Header, FileError> {
    let mut poller = Poller::new(ctl, 0);
    let mut r = Crc {
        inner: io::BufReader::with_capacity(1 << 16, r),
        crc: crc32fast::Hasher::new(),
    };
    let mut magic = [0; 8];
    if r.read(&mut magic[..1])? == 0 {
        return invalid("it is empty");
    }
    r.read_exact(&mut magic[1..])
        .map_err(|_| FileError::Invalid("not a grundy search checkpoint".into()))?;
    if &magic != MAGIC {
        return invalid("not a grundy search checkpoint (its first bytes differ)");
    }
    let version = u32_of(&mut r)?;
    if version != VERSION {
        return invalid(format!(
            "it has format version {version}; this grundy reads version {VERSION}"
        ));
    }
    let key_bytes = u32_of(&mut r)?;
    if key_bytes != 8 && key_bytes != 16 {
        return invalid(format!("keys of {key_bytes} bytes (corrupted)"));
    }
    let meta_len = u32_of(&mut r)?;
    if meta_len > MAX_META {
        return invalid("its record is too long (corrupted)");
    }
    let mut meta = vec![0; meta_len as usize];
    r.read_exact(&mut meta)?;
    let kb = key_bytes as usize;
    let mut buf = vec![0u8; kb + 8];
    let mut total = 0u64;
    for section in 0..2 {
        loop {
            let n = u32_of(&mut r)?;
            if n == 0 {
                break;
            }
            if n as usize > BLOCK {
                return invalid("a block of entries is too long (corrupted)");
            }
            for _ in 0..n {
                r.read_exact(&mut buf)?;
                let mut k = [0u8; 16];
                k[..kb].copy_from_slice(&buf[..kb]);
                let key = u128::from_le_bytes(k);
                let mut d = [0u8; 8];
                d.copy_from_slice(&buf[kb..]);
                let contents = u64::from_le_bytes(d);
                if contents & !super::table::CONTENTS != 0 || (contents >> 32) & 0xff > 128 {
                    return invalid("an entry's data is not one a table writes (corrupted)");
                }
                entry(section, key, contents)?;
            }
            total += u64::from(n);
            poller.tick(total).map_err(FileError::Stopped)?;
        }
    }
    let mut count = [0; 8];
    r.read_exact(&mut count)?;
    let crc = r.crc.clone().finalize();
    let mut trailer = [0; 8];
    r.inner.read_exact(&mut trailer)?;
    if u64::from_le_bytes(count) != total || &trailer[4..] != END {
        return invalid("its trailer is wrong (corrupted or truncated)");
    }
    if u32::from_le_bytes(trailer[..4].try_into().expect("4 bytes")) != crc {
        return invalid("its checksum does not match its contents (corrupted)");
    }
    if r.inner.read(&mut [0])? != 0 {
        return invalid("bytes follow its end (corrupted)");
    }
    Ok(Header {
        key_bytes,
        meta,
        entries: total,
    })
}

/// Checks a checkpoint whole (reading it through, holding only its record and a buffer) and
/// returns its header.
///
/// # Errors
/// [`FileError::Invalid`] for anything but a whole, uncorrupted checkpoint of this format
/// version; [`FileError::Io`] when reading fails; [`FileError::Stopped`] when `ctl` stops it.
pub fn read_header<R: Read>(r: R, ctl: &dyn Control) -> Result<Header, FileError> {
    scan(r, ctl, |_, _, _| Ok(()))
}

impl<B: Board + ?Sized> Search<'_, B> {
    /// Puts the entries of the checkpoint in `r` (read again from its start) into the tables,
    /// beside what they hold (a full bucket keeps its most costly entries); the entries read.
    /// `header` is what [`read_header`] read of the same file first, whose record the caller
    /// checked: the file must come from a search of the same game (its keys mean nothing to
    /// another).
    ///
    /// # Errors
    /// [`FileError::Invalid`] for keys of another width than this game's (nothing read), and as
    /// [`read_header`] when the file changed since or `ctl` stopped the read: the tables are
    /// then emptied (what they took from it may be wrong, or part of it).
    pub fn load_checkpoint<R: Read + Seek>(
        &mut self,
        mut r: R,
        header: &Header,
        ctl: &dyn Control,
    ) -> Result<u64, FileError> {
        let want = self.table.key_bytes();
        if header.key_bytes as usize != want {
            return invalid(format!(
                "its keys take {} bytes, this game's {want} (another game's file)",
                header.key_bytes
            ));
        }
        r.seek(SeekFrom::Start(0))?;
        self.table.reserve(header.entries);
        let tables: [&AnyTable; 2] = [&self.small, &self.table];
        let result = scan(r, ctl, |section, key, contents| {
            tables[section].restore(key, contents);
            Ok(())
        });
        match result {
            Ok(h) if h == *header => Ok(h.entries),
            Ok(_) => {
                self.forget();
                invalid("it changed while it was read")
            }
            Err(e) => {
                self.forget();
                Err(e)
            }
        }
    }

    /// Empties the tables.
    fn forget(&self) {
        self.small.clear();
        self.table.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Cram, NodeKayles, SimpleGraph};
    use crate::control::NoControl;
    use std::io::Cursor;

    /// A checkpoint of a search of Cram 4 x 5 with a record, and the search's value.
    fn written() -> (Vec<u8>, u64) {
        let cram = Cram::new(4, 5).unwrap();
        let mut s = Search::new(&cram, 1 << 20).unwrap();
        assert_eq!(s.value(cram.empty(), &NoControl).unwrap(), 2);
        let mut f = Vec::new();
        let n = s
            .watch()
            .write_checkpoint(&mut f, b"{\"cram\": 1}")
            .unwrap();
        assert_eq!(n, s.stats().table_entries);
        (f, n)
    }

    #[test]
    fn round_trip_answers_without_search() {
        let (f, n) = written();
        assert!(n > 100);
        let h = read_header(&f[..], &NoControl).unwrap();
        assert_eq!((h.key_bytes, h.entries), (8, n));
        assert_eq!(h.meta, b"{\"cram\": 1}");
        let cram = Cram::new(4, 5).unwrap();
        let mut s = Search::new(&cram, 1 << 20).unwrap();
        assert_eq!(
            s.load_checkpoint(Cursor::new(&f), &h, &NoControl).unwrap(),
            n
        );
        assert_eq!(s.stats().table_entries, n);
        assert_eq!(s.value(cram.empty(), &NoControl).unwrap(), 2);
        assert_eq!(s.stats().nodes, 0);
        // Into a table a sixteenth of the size: fewer entries kept, the value the same.
        let mut small = Search::new(&cram, 1 << 16).unwrap();
        small
            .load_checkpoint(Cursor::new(&f), &h, &NoControl)
            .unwrap();
        assert!(small.stats().table_entries < n);
        assert_eq!(small.value(cram.empty(), &NoControl).unwrap(), 2);
    }

    #[test]
    fn wide_keys_round_trip() {
        // Node Kayles on 70 vertices: keys of 16 bytes.
        let nk = NodeKayles::new(SimpleGraph::grid(2, 35).unwrap());
        let pos = nk.start() & !((1u128 << 50) - 1); // 20 vertices left
        let mut s = Search::new(&nk, 1 << 20).unwrap();
        let v = s.value(pos, &NoControl).unwrap();
        let mut f = Vec::new();
        let n = s.watch().write_checkpoint(&mut f, b"").unwrap();
        let h = read_header(&f[..], &NoControl).unwrap();
        assert_eq!(h.key_bytes, 16);
        let mut again = Search::new(&nk, 1 << 20).unwrap();
        assert_eq!(
            again
                .load_checkpoint(Cursor::new(&f), &h, &NoControl)
                .unwrap(),
            n
        );
        assert_eq!(again.value(pos, &NoControl).unwrap(), v);
        assert_eq!(again.stats().nodes, 0);
        // A narrow game refuses it.
        let cram = Cram::new(4, 5).unwrap();
        let mut narrow = Search::new(&cram, 1 << 20).unwrap();
        assert!(matches!(
            narrow.load_checkpoint(Cursor::new(&f), &h, &NoControl),
            Err(FileError::Invalid(_))
        ));
        assert_eq!(narrow.stats().table_entries, 0);
    }

    #[test]
    fn truncated_files_are_refused() {
        let (f, _) = written();
        // Every cut: in the header, in a block, in the trailer, and the last byte.
        for cut in [0, 5, 12, 20, 40, f.len() / 2, f.len() - 9, f.len() - 1] {
            let e = read_header(&f[..cut], &NoControl).unwrap_err();
            assert!(matches!(e, FileError::Invalid(_)), "{cut}: {e}");
            // A file cut after it was checked: nothing of it stays in the tables.
            let cram = Cram::new(4, 5).unwrap();
            let mut s = Search::new(&cram, 1 << 20).unwrap();
            let h = read_header(&f[..], &NoControl).unwrap();
            assert!(s
                .load_checkpoint(Cursor::new(&f[..cut]), &h, &NoControl)
                .is_err());
            assert_eq!(s.stats().table_entries, 0, "{cut}");
        }
    }

    #[test]
    fn a_corrupt_byte_anywhere_is_refused() {
        let (f, _) = written();
        let mut rng = crate::engine::testing::Rng(3);
        let mut places: Vec<usize> = (0..40)
            .map(|_| rng.below(f.len() as u64) as usize)
            .collect();
        places.extend([0, 9, 13, 17, f.len() - 13, f.len() - 5, f.len() - 1]);
        for i in places {
            for flip in [1u8, 0x80] {
                let mut g = f.clone();
                g[i] ^= flip;
                let e = read_header(&g[..], &NoControl).unwrap_err();
                assert!(matches!(e, FileError::Invalid(_)), "byte {i}: {e}");
            }
        }
        let mut g = f.clone();
        g.push(0);
        assert!(read_header(&g[..], &NoControl).is_err());
    }

    #[test]
    fn foreign_files_are_refused() {
        for f in [
            &b""[..],
            b"GRUNDY",
            b"PK\x03\x04 a zip archive, not a checkpoint",
            b"GRUNDYTT\x02\0\0\0\x08\0\0\0\0\0\0\0",
        ] {
            let e = read_header(f, &NoControl).unwrap_err();
            assert!(matches!(e, FileError::Invalid(_)), "{e}");
        }
        let e = read_header(&b"GRUNDYTT\x02\0\0\0"[..], &NoControl).unwrap_err();
        assert!(e.to_string().contains("version 2"), "{e}");
    }

    /// A checkpoint written while threads store finds only entries that are right.
    #[test]
    fn written_beside_a_parallel_search_holds_no_torn_entry() {
        let cram = Cram::new(5, 6).unwrap();
        let pool = crate::engine::testing::pool(2);
        let mut s = Search::new(&cram, 1 << 18).unwrap();
        let watch = s.watch();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let (files, v) = std::thread::scope(|sc| {
            let w = sc.spawn(|| {
                let mut files = Vec::new();
                while !stop.load(std::sync::atomic::Ordering::Relaxed) || files.is_empty() {
                    let mut f = Vec::new();
                    watch.write_checkpoint(&mut f, b"").unwrap();
                    files.push(f);
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                files
            });
            let split = super::super::Split {
                min_cells: 6,
                mark_cells: 6,
            };
            let v = s.value_threads(cram.empty(), &NoControl, Some(&pool), split);
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            (w.join().unwrap(), v.unwrap())
        });
        let value = cram_5x6();
        assert_eq!(v, value);
        // A table loaded from any of the files answers as a fresh search does, at the start
        // and at a quarter of its options.
        let mut opts = Vec::new();
        cram.options(cram.empty(), &mut opts);
        let opts: Vec<u128> = opts.into_iter().step_by(4).collect();
        let mut fresh = Search::new(&cram, 1 << 22).unwrap();
        let want: Vec<u32> = opts
            .iter()
            .map(|&o| fresh.value(o, &NoControl).unwrap())
            .collect();
        for f in files.iter().step_by(files.len().div_ceil(3)) {
            let mut t = Search::new(&cram, 1 << 20).unwrap();
            t.load_checkpoint(
                Cursor::new(f),
                &read_header(&f[..], &NoControl).unwrap(),
                &NoControl,
            )
            .unwrap();
            assert_eq!(t.value(cram.empty(), &NoControl).unwrap(), value);
            for (&o, &v) in opts.iter().zip(&want) {
                assert_eq!(t.value(o, &NoControl).unwrap(), v);
            }
        }
    }

    /// A reader that takes its time, as a file of gigabytes does.
    struct Slow<R>(R);

    impl<R: Read> Read for Slow<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            std::thread::sleep(std::time::Duration::from_millis(5));
            let n = buf.len().min(4096);
            self.0.read(&mut buf[..n])
        }
    }

    impl<R: Seek> Seek for Slow<R> {
        fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
            self.0.seek(to)
        }
    }

    #[test]
    fn a_control_stops_a_long_read_and_the_tables_stay_empty() {
        let cram = Cram::new(5, 6).unwrap();
        let mut s = Search::new(&cram, 1 << 22).unwrap();
        s.value(cram.empty(), &NoControl).unwrap();
        let mut f = Vec::new();
        let n = s.watch().write_checkpoint(&mut f, b"{}").unwrap();
        assert!(n > 2 * BLOCK as u64, "several blocks: {n} entries");
        let h = read_header(&f[..], &NoControl).unwrap();
        let stop = crate::engine::testing::Deadline(std::time::Instant::now());
        let e = read_header(Slow(&f[..]), &stop).unwrap_err();
        assert!(
            matches!(e, FileError::Stopped(crate::error::Error::Interrupted)),
            "{e}"
        );
        let mut t = Search::new(&cram, 1 << 22).unwrap();
        let e = t
            .load_checkpoint(Slow(Cursor::new(&f)), &h, &stop)
            .unwrap_err();
        assert!(matches!(e, FileError::Stopped(_)), "{e}");
        assert_eq!(t.stats().table_entries, 0, "a part of a file is not kept");
        // Not stopped, the same slow read goes through.
        let late = crate::engine::testing::Deadline(
            std::time::Instant::now() + std::time::Duration::from_secs(3600),
        );
        assert_eq!(
            t.load_checkpoint(Slow(Cursor::new(&f)), &h, &late).unwrap(),
            n
        );
    }

    fn cram_5x6() -> u32 {
        let cram = Cram::new(5, 6).unwrap();
        Search::new(&cram, 1 << 22)
            .unwrap()
            .value(cram.empty(), &NoControl)
            .unwrap()
    }
}
