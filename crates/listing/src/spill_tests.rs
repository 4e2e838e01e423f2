use std::fs::File;
use std::ops::ControlFlow;
use std::sync::Arc;

use super::*;

/// Texts of many lengths and characters: empty, multi-byte, longer than a scan's window.
fn texts(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| match i % 5 {
            0 => String::new(),
            1 => format!("{{\"id\":\"r{i}\",\"name\":\"ünïcödé キュー {i}\"}}"),
            2 => "x".repeat(1 + i % 3000),
            3 => format!("{{\"n\":{i}e400,\"\\u0000\":\"\\ud800\"}}"),
            _ => format!("{i}"),
        })
        .collect()
}

/// Appends `text` as the UI thread does, then writes what is due as the runtime does after it.
fn put(spill: &Spill, text: &str) -> u64 {
    let offset = spill.append(text);
    spill.write_due();
    offset
}

fn all(spill: &Spill, offsets: &[u64]) -> Vec<(usize, String)> {
    let mut seen = Vec::new();
    spill
        .scan(
            offsets,
            |o| o,
            |position, text| {
                seen.push((position, text.to_owned()));
                ControlFlow::Continue(())
            },
        )
        .unwrap();
    seen
}

/// Appending (the UI thread's `update`) never makes or writes the file, however much gathers:
/// only the runtime's [`Spill::write_due`] does.
#[test]
fn appends_stay_in_memory_until_the_writer_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    let spill = Spill::in_dir(dir.path().join("cache"));
    let texts = texts(2000);
    let offsets: Vec<u64> = texts.iter().map(|t| spill.append(t)).collect();
    assert!(spill.is_due());
    assert!(!spill.on_disk(), "nothing written by appending");
    assert!(!dir.path().join("cache").exists(), "no directory made");
    assert_eq!(spill.read(offsets[1999]).unwrap(), texts[1999]);
    spill.write_due();
    assert!(spill.on_disk() && !spill.is_due());
    let expected: Vec<_> = texts.iter().cloned().enumerate().collect();
    assert_eq!(all(&spill, &offsets), expected);
}

#[test]
fn texts_read_back_byte_for_byte_from_the_file_and_from_memory() {
    let dir = tempfile::tempdir().unwrap();
    let spill = Spill::in_dir(dir.path());
    let texts = texts(2000);
    let offsets: Vec<u64> = texts.iter().map(|t| put(&spill, t)).collect();
    assert!(spill.on_disk(), "over {WRITE_AT} bytes go to the file");
    assert!(
        !spill.tail().pending.is_empty(),
        "the last ones wait in memory"
    );
    for (text, &offset) in texts.iter().zip(&offsets) {
        assert_eq!(&spill.read(offset).unwrap(), text);
    }
    let expected: Vec<_> = texts.iter().cloned().enumerate().collect();
    assert_eq!(all(&spill, &offsets), expected);
}

#[test]
fn a_text_longer_than_a_scan_window_reads_whole() {
    let spill = Spill::in_dir(tempfile::tempdir().unwrap().path());
    let big = "é".repeat(SCAN_WINDOW as usize);
    let before = put(&spill, "a");
    let offset = put(&spill, &big);
    let after = put(&spill, "z");
    assert!(spill.on_disk());
    assert_eq!(spill.read(offset).unwrap(), big);
    let seen = all(&spill, &[before, offset, after]);
    assert_eq!(seen[1].1, big);
    assert_eq!((seen[0].1.as_str(), seen[2].1.as_str()), ("a", "z"));
}

#[test]
fn a_scan_goes_in_the_order_given_and_stops_when_told() {
    let spill = Spill::in_dir(tempfile::tempdir().unwrap().path());
    let texts = texts(3000);
    let offsets: Vec<u64> = texts.iter().map(|t| put(&spill, t)).collect();
    // Backwards, every third: each text is read alone, none is taken from a stale window.
    let picked: Vec<u64> = offsets.iter().rev().step_by(3).copied().collect();
    let expected: Vec<_> = texts.iter().rev().step_by(3).cloned().enumerate().collect();
    assert_eq!(all(&spill, &picked), expected);
    let mut calls = 0;
    spill
        .scan(
            &offsets,
            |o| o,
            |position, _| {
                calls += 1;
                if position == 9 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        )
        .unwrap();
    assert_eq!(calls, 10);
}

/// A job scans on its own thread while the UI thread keeps appending: it sees every text it
/// asked for whole, wherever it was (written, being written, still in memory).
#[test]
fn another_thread_scans_while_texts_are_appended() {
    let spill = Arc::new(Spill::in_dir(tempfile::tempdir().unwrap().path()));
    let texts = texts(20_000);
    let (first, rest) = texts.split_at(5000);
    let offsets: Vec<u64> = first.iter().map(|t| put(&spill, t)).collect();
    let reader = {
        let spill = spill.clone();
        let expected = first.to_vec();
        std::thread::spawn(move || {
            for _ in 0..20 {
                let seen: Vec<String> = all(&spill, &offsets).into_iter().map(|s| s.1).collect();
                assert_eq!(seen, expected);
            }
        })
    };
    let later: Vec<u64> = rest.iter().map(|t| put(&spill, t)).collect();
    reader.join().unwrap();
    for (text, &offset) in rest.iter().zip(&later).step_by(97) {
        assert_eq!(&spill.read(offset).unwrap(), text);
    }
}

/// The file is unlinked from the start: nothing is left in its directory while it is used, once
/// it is dropped, or after a crash (the kernel frees an unlinked file with its last descriptor).
#[test]
fn the_spill_file_leaves_nothing_in_its_directory() {
    let dir = tempfile::tempdir().unwrap();
    let spill = Spill::in_dir(dir.path().join("cache"));
    let offsets: Vec<u64> = texts(2000).iter().map(|t| put(&spill, t)).collect();
    assert!(spill.on_disk());
    let entries = || std::fs::read_dir(dir.path().join("cache")).unwrap().count();
    assert_eq!(entries(), 0, "the file has no name while in use");
    assert!(spill.read(offsets[1]).is_ok());
    drop(spill);
    assert_eq!(entries(), 0);
}

/// A directory that cannot be made (a file is in the way): the file goes to the system's
/// temporary directory. Without a file at all, the texts stay in memory. Either way they read
/// back whole.
#[test]
fn without_its_directory_or_without_a_file_the_texts_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_dir = dir.path().join("file");
    std::fs::write(&not_a_dir, "").unwrap();
    for (spill, on_disk) in [
        (Spill::in_dir(&not_a_dir), true),
        (Spill::in_memory(), false),
    ] {
        let texts = texts(2000);
        let offsets: Vec<u64> = texts.iter().map(|t| put(&spill, t)).collect();
        assert_eq!(spill.on_disk(), on_disk);
        let expected: Vec<_> = texts.iter().cloned().enumerate().collect();
        assert_eq!(all(&spill, &offsets), expected);
    }
}

#[test]
fn an_offset_no_append_returned_is_an_error_not_a_panic() {
    let spill = Spill::in_dir(tempfile::tempdir().unwrap().path());
    let offsets: Vec<u64> = texts(2000).iter().map(|t| put(&spill, t)).collect();
    let written = spill.tail().written;
    for bad in [written - 1, written + 3, u64::MAX, offsets[7] + 1] {
        assert!(spill.read(bad).is_err(), "offset {bad}");
    }
    assert!(
        spill
            .scan(
                &[offsets[0], u64::MAX],
                |o| o,
                |_, _| ControlFlow::Continue(())
            )
            .is_err()
    );
}

/// A write that fails once the file holds texts (a full disk): what is written is read from the
/// file, everything after stays in memory, and every text reads back.
#[cfg(target_os = "linux")]
#[test]
fn after_a_failed_write_the_texts_stay_in_memory_and_read_back() {
    use std::os::fd::AsRawFd;
    let spill = Spill::in_dir(tempfile::tempdir().unwrap().path());
    let texts = texts(6000);
    let (first, rest) = texts.split_at(2000);
    let mut offsets: Vec<u64> = first.iter().map(|t| put(&spill, t)).collect();
    assert!(spill.on_disk());
    {
        // The same file, opened again for reading only: the next write fails.
        let mut tail = spill.tail();
        let fd = tail.file.as_ref().unwrap().as_raw_fd();
        let read_only = File::open(format!("/proc/self/fd/{fd}")).unwrap();
        tail.file = Some(Arc::new(read_only));
    }
    let written = spill.tail().written;
    offsets.extend(rest.iter().map(|t| put(&spill, t)));
    let tail = spill.tail();
    assert!(
        tail.in_memory && tail.written == written,
        "nothing more written"
    );
    assert!(tail.pending.len() > 2 * WRITE_AT, "the rest kept in memory");
    drop(tail);
    let expected: Vec<_> = texts.iter().cloned().enumerate().collect();
    assert_eq!(all(&spill, &offsets), expected);
}
