//! Resource limits as one design (a shared leaf, like `diag` and `ids`): a [`Deadline`]
//! that the driver makes once and passes down to every layer that loops for long or calls
//! the solver, and a watchdog ([`run_guarded`]) that answers on time even when a piece of
//! work does not come back.
//!
//! The contract:
//! - long loops poll [`Deadline::check`] (an atomic load and a clock read) and stop with a
//!   value, never a panic;
//! - every solver call gets a per-call limit of at most [`Deadline::remaining`];
//! - an interrupted computation may only return an *over-approximation* (or give up):
//!   everything it produced after the limit is discarded by its caller, which answers
//!   UNKNOWN;
//! - [`run_guarded`] runs the work on its own thread and samples the clock and the
//!   resident memory; past a limit it cancels the deadline (so the work stops at its next
//!   poll) and returns [`Exhausted`] after a short grace, whether or not the work came
//!   back.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which limit ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Exhausted {
    /// The wall-clock limit (`--timeout`).
    Time,
    /// The memory limit (`--memory`).
    Memory,
}

impl std::fmt::Display for Exhausted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Exhausted::Time => "time limit",
            Exhausted::Memory => "memory limit",
        })
    }
}

/// The default memory limit (`--memory`), in MB.
pub const DEFAULT_MEMORY_MB: u64 = 4096;

/// A time limit given in seconds (`None`, negative or not finite: none).
pub fn seconds(timeout_s: Option<f64>) -> Option<Duration> {
    timeout_s
        .filter(|t| t.is_finite() && *t >= 0.0)
        .map(|t| Duration::from_secs_f64(t.min(1e9)))
}

const RUNNING: u8 = 0;
const TIME: u8 = 1;
const MEMORY: u8 = 2;

/// A wall-clock limit, an optional memory limit, and a cancellation flag shared by all
/// clones (cancelling one cancels them all). [`Deadline::none`] never expires unless
/// cancelled.
#[derive(Clone, Debug)]
pub struct Deadline {
    at: Option<Instant>,
    /// A work limit of the thread that made it ([`Deadline::sub_work`]): the thread's
    /// count of work units ([`work_done`]) at which it expires.
    work_at: Option<u64>,
    memory_bytes: Option<u64>,
    state: Arc<AtomicU8>,
}

impl Default for Deadline {
    fn default() -> Self {
        Deadline::none()
    }
}

impl Deadline {
    /// No time or memory limit.
    pub fn none() -> Deadline {
        Deadline {
            at: None,
            work_at: None,
            memory_bytes: None,
            state: Arc::new(AtomicU8::new(RUNNING)),
        }
    }

    /// Expires `d` from now.
    pub fn after(d: Duration) -> Deadline {
        Deadline::none().with_timeout(Some(d))
    }

    /// Expires at `at` (`None`: never).
    pub fn at(at: Option<Instant>) -> Deadline {
        Deadline {
            at,
            ..Deadline::none()
        }
    }

    /// The same deadline with a time limit `d` from now (`None`: no time limit).
    pub fn with_timeout(mut self, d: Option<Duration>) -> Deadline {
        self.at = d.map(|d| Instant::now() + d.min(Duration::from_secs(1 << 32)));
        self
    }

    /// The same deadline with a resident-memory limit (enforced by `run_guarded`).
    pub fn with_memory_mb(mut self, mb: Option<u64>) -> Deadline {
        self.memory_bytes = mb.map(|m| m.saturating_mul(1 << 20));
        self
    }

    /// A deadline for a part of the work: expires at `part` from now or at `self`,
    /// whichever is first, and is cancelled with `self`.
    pub fn sub(&self, part: Duration) -> Deadline {
        let t = Instant::now() + part;
        Deadline {
            at: Some(self.at.map_or(t, |a| a.min(t))),
            work_at: self.work_at,
            memory_bytes: self.memory_bytes,
            state: Arc::clone(&self.state),
        }
    }

    /// A deadline for a part of the work done by the calling thread: expires once this
    /// thread has done `units` more units of work ([`add_work`]: simplex pivots and checks,
    /// Fourier–Motzkin eliminations, arithmetic on big numbers, and the engine's fact
    /// comparisons, weighted by their size), or at `self`, and is cancelled with `self`.
    /// The count is the same on every machine and under any load, so a phase bounded this
    /// way ends at the same point of its work everywhere: what it decides does not depend
    /// on the machine's speed. Only the thread that made it may poll it.
    pub fn sub_work(&self, units: u64) -> Deadline {
        let at = work_done().saturating_add(units);
        Deadline {
            work_at: Some(self.work_at.map_or(at, |w| w.min(at))),
            ..self.clone()
        }
    }

    /// The instant it expires, if any.
    pub fn instant(&self) -> Option<Instant> {
        self.at
    }

    /// The memory limit in bytes, if any.
    pub fn memory_bytes(&self) -> Option<u64> {
        self.memory_bytes
    }

    /// Time left (`None`: no time limit). Zero once expired or cancelled.
    pub fn remaining(&self) -> Option<Duration> {
        if self.state.load(Ordering::Relaxed) != RUNNING {
            return Some(Duration::ZERO);
        }
        self.at.map(|a| a.saturating_duration_since(Instant::now()))
    }

    /// Time left in whole milliseconds, at least 1 (a solver's per-call limit), or `None`
    /// without a time limit.
    pub fn remaining_ms(&self) -> Option<u64> {
        self.remaining()
            .map(|d| (d.as_millis().min(u64::MAX as u128) as u64).max(1))
    }

    /// `Err` once a limit ran out or the deadline was cancelled.
    pub fn check(&self) -> Result<(), Exhausted> {
        match self.state.load(Ordering::Relaxed) {
            TIME => return Err(Exhausted::Time),
            MEMORY => return Err(Exhausted::Memory),
            _ => {}
        }
        match self.at {
            Some(a) if Instant::now() >= a => return Err(Exhausted::Time),
            _ => {}
        }
        if self.work_at.is_some_and(|w| work_done() >= w) {
            return Err(Exhausted::Time);
        }
        Ok(())
    }

    /// Whether a limit ran out.
    pub fn expired(&self) -> bool {
        self.check().is_err()
    }

    /// Cancel the work that polls this deadline (and every clone of it), for `why`.
    pub fn cancel(&self, why: Exhausted) {
        let v = match why {
            Exhausted::Time => TIME,
            Exhausted::Memory => MEMORY,
        };
        let _ = self
            .state
            .compare_exchange(RUNNING, v, Ordering::Relaxed, Ordering::Relaxed);
    }
}

thread_local! {
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Count `units` of work done by the calling thread (see [`Deadline::sub_work`]).
pub fn add_work(units: u64) {
    WORK.with(|w| w.set(w.get().saturating_add(units)));
}

/// The units of work the calling thread has done so far.
pub fn work_done() -> u64 {
    WORK.with(|w| w.get())
}

/// The CPU time the calling thread has used, if the platform tells.
#[cfg(test)]
fn thread_cpu() -> Option<Duration> {
    cpu_time::ThreadTime::try_now()
        .ok()
        .map(|t| t.as_duration())
}

/// Lower the calling thread's scheduling priority by `nice` steps (Linux: a thread has
/// its own nice value). The portfolio's bounded engine and search do this, so that on a
/// machine with fewer cores than engines the CEGAR engine, the only one that proves
/// SAFE for unbounded programs, keeps a whole core. Lowering a priority needs no
/// privilege; elsewhere, or if the call fails, nothing changes (the result says whether
/// it did).
pub fn lower_thread_priority(nice: i32) -> bool {
    current_thread_id().is_some_and(|tid| lower_priority_of(tid, nice))
}

/// The calling thread's system id (Linux), for [`lower_priority_of`] from another thread.
pub fn current_thread_id() -> Option<i64> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: a plain system call with no arguments.
        Some(i64::from(unsafe { libc::gettid() }))
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Lower the scheduling priority of the thread `tid` ([`current_thread_id`]) by `nice`
/// steps, as [`lower_thread_priority`] does for the calling thread.
pub fn lower_priority_of(tid: i64, nice: i32) -> bool {
    #[cfg(target_os = "linux")]
    {
        let Ok(id) = libc::id_t::try_from(tid) else {
            return false;
        };
        // SAFETY: plain system calls on a thread id, with no pointers.
        unsafe {
            let now = libc::getpriority(libc::PRIO_PROCESS, id);
            libc::setpriority(libc::PRIO_PROCESS, id, now.saturating_add(nice)) == 0
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (tid, nice);
        false
    }
}

/// The CPU time the thread `tid` ([`current_thread_id`]) of this process has used, if the
/// platform tells (Linux: `/proc/self/task/TID/stat`, in clock ticks); `None` once the
/// thread has ended.
pub fn thread_cpu_of(tid: i64) -> Option<Duration> {
    #[cfg(target_os = "linux")]
    {
        let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).ok()?;
        // The fields after the command name (in parentheses, which may hold spaces):
        // state is field 3, utime and stime are fields 14 and 15.
        let rest = &stat[stat.rfind(')')? + 1..];
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
        // SAFETY: a plain query of a system constant.
        let per_second = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).ok()?;
        (per_second > 0).then(|| Duration::from_nanos(ticks * 1_000_000_000 / per_second))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = tid;
        None
    }
}

/// The CPU time this process has used (all threads), if the platform tells.
pub fn process_cpu() -> Option<Duration> {
    cpu_time::ProcessTime::try_now()
        .ok()
        .map(|t| t.as_duration())
}

/// The resident memory of this process in bytes, if the platform tells.
pub fn resident_bytes() -> Option<u64> {
    memory_stats::memory_stats().map(|m| m.physical_mem as u64)
}

/// How often the watchdog samples the clock and the memory.
const TICK: Duration = Duration::from_millis(20);

/// How long the watchdog waits, after cancelling, for the work to come back with its own
/// (better) answer.
const GRACE: Duration = Duration::from_millis(150);

/// Run `work` on its own thread (with `stack_bytes` of stack) under `deadline`. Returns
/// its result, or [`Exhausted`] if the time or memory limit ran out before it came back
/// (then the deadline is cancelled, so the work stops at its next poll; the thread is
/// left to finish on its own). `Err(None)` if the thread could not start or panicked.
///
/// The answer comes at most about `TICK + GRACE` after the time limit.
pub fn run_guarded<T: Send + 'static>(
    deadline: &Deadline,
    stack_bytes: usize,
    name: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Option<Exhausted>> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name(name.to_string())
        .stack_size(stack_bytes)
        .spawn(move || {
            let r = work();
            let _ = tx.send(r);
        });
    if spawned.is_err() {
        return Err(None);
    }
    let mut cancelled: Option<(Exhausted, Instant)> = None;
    loop {
        match rx.recv_timeout(TICK) {
            Ok(r) => return Ok(r),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // The thread ended without sending: it panicked.
                return Err(None);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let now = Instant::now();
        if let Some((why, since)) = cancelled {
            if now.duration_since(since) >= GRACE {
                return Err(Some(why));
            }
            continue;
        }
        let why = if deadline.instant().is_some_and(|a| now >= a) {
            Some(Exhausted::Time)
        } else if deadline
            .memory_bytes()
            .is_some_and(|m| resident_bytes().is_some_and(|r| r > m))
        {
            Some(Exhausted::Memory)
        } else {
            None
        };
        if let Some(why) = why {
            deadline.cancel(why);
            cancelled = Some((why, now));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_never_expires_and_cancel_is_shared() {
        let d = Deadline::none();
        assert_eq!(d.check(), Ok(()));
        assert_eq!(d.remaining(), None);
        let c = d.clone();
        c.cancel(Exhausted::Memory);
        assert_eq!(d.check(), Err(Exhausted::Memory));
        assert_eq!(d.remaining(), Some(Duration::ZERO));
    }

    #[test]
    fn sub_deadline_is_the_earlier_one() {
        let d = Deadline::after(Duration::from_secs(100));
        let s = d.sub(Duration::from_millis(1));
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(s.check(), Err(Exhausted::Time));
        assert_eq!(d.check(), Ok(()));
        let far = Deadline::after(Duration::ZERO).sub(Duration::from_secs(100));
        assert!(far.expired());
    }

    #[test]
    fn work_sub_deadline_ends_at_a_count_not_a_time() {
        let d = Deadline::after(Duration::from_secs(100));
        let s = d.sub_work(1000);
        // Waiting does no work: the part is not over ...
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(s.check(), Ok(()));
        // ... and it ends exactly at the counted units.
        add_work(999);
        assert_eq!(s.check(), Ok(()));
        add_work(1);
        assert_eq!(s.check(), Err(Exhausted::Time));
        assert_eq!(d.check(), Ok(()), "the whole deadline goes on");
        // Another thread's work is its own count.
        let t = d.sub_work(10);
        std::thread::spawn(|| add_work(1_000_000)).join().unwrap();
        assert_eq!(t.check(), Ok(()));
        // A nested part ends at the earlier count; cancelling the whole cancels it.
        let inner = t.sub_work(1_000_000);
        add_work(10);
        assert!(inner.expired());
        let u = d.sub_work(1_000_000);
        d.cancel(Exhausted::Time);
        assert!(u.expired());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn another_threads_cpu_time_is_its_own_and_ends_with_it() {
        let (tx, rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let worker = std::thread::spawn(move || {
            tx.send(current_thread_id().unwrap()).unwrap();
            // Spin until the thread's own clock has moved by a few ticks.
            let start = thread_cpu().unwrap();
            while thread_cpu().unwrap() - start < Duration::from_millis(60) {
                std::hint::black_box(0u64);
            }
            done_rx.recv().unwrap();
        });
        let tid = rx.recv().unwrap();
        let me = current_thread_id().unwrap();
        // The spinning thread's clock reaches its 60 ms while this one sleeps.
        let mut seen = Duration::ZERO;
        while seen < Duration::from_millis(40) {
            std::thread::sleep(Duration::from_millis(5));
            seen = thread_cpu_of(tid).expect("a running thread has a CPU time");
        }
        assert!(
            thread_cpu_of(me).unwrap() < seen,
            "the sleeping thread is not charged"
        );
        done_tx.send(()).unwrap();
        worker.join().unwrap();
        // The kernel releases the thread's entry just after `join` returns.
        let gone = (0..2000).any(|_| {
            std::thread::sleep(Duration::from_millis(1));
            thread_cpu_of(tid).is_none()
        });
        assert!(gone, "an ended thread has no CPU time");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_lowered_priority_is_the_calling_threads_own() {
        let nice_of =
            |tid: libc::pid_t| unsafe { libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t) };
        let main_tid = unsafe { libc::gettid() };
        let before = nice_of(main_tid);
        let (lowered, own) = std::thread::spawn(|| {
            let tid = unsafe { libc::gettid() };
            let was = unsafe { libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t) };
            let ok = lower_thread_priority(5);
            let now = unsafe { libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t) };
            (ok, (was, now))
        })
        .join()
        .unwrap();
        assert!(lowered);
        assert_eq!(
            own.1,
            (own.0 + 5).min(19),
            "the thread's nice value went up"
        );
        assert_eq!(nice_of(main_tid), before, "the other threads keep theirs");
    }

    #[test]
    fn guarded_work_that_never_polls_is_answered_on_time() {
        let d = Deadline::after(Duration::from_millis(100));
        let start = Instant::now();
        let r = run_guarded(&d, 1 << 20, "spin", || {
            std::thread::sleep(Duration::from_secs(3));
            1
        });
        assert_eq!(r, Err(Some(Exhausted::Time)));
        assert!(start.elapsed() < Duration::from_secs(2));
        assert!(d.expired(), "the deadline is cancelled for the work");
    }

    #[test]
    fn guarded_work_that_polls_comes_back_with_its_answer() {
        let d = Deadline::after(Duration::from_millis(50));
        let dd = d.clone();
        let r = run_guarded(&d, 1 << 20, "poll", move || loop {
            if dd.check().is_err() {
                return "stopped";
            }
            std::thread::sleep(Duration::from_millis(1));
        });
        assert_eq!(r, Ok("stopped"));
    }

    #[test]
    fn memory_limit_cancels() {
        // A limit below what the process already uses.
        let d = Deadline::none().with_memory_mb(Some(1));
        if resident_bytes().is_none() {
            return;
        }
        let dd = d.clone();
        let r = run_guarded(&d, 1 << 20, "mem", move || loop {
            if let Err(e) = dd.check() {
                return e;
            }
            std::thread::sleep(Duration::from_millis(1));
        });
        assert_eq!(r, Ok(Exhausted::Memory));
    }

    #[test]
    fn a_panicking_work_is_reported() {
        let r: Result<(), _> = run_guarded(&Deadline::none(), 1 << 20, "panic", || {
            panic!("boom");
        });
        assert_eq!(r, Err(None));
    }
}
