//! A thread that does something every interval and once more when told to stop: the InfluxDB
//! pusher and the MPI ranks' pusher.

use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

pub struct Ticker {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Ticker {
    /// Calls `tick` every `interval` on a thread named `name`, and a last time once
    /// [`stop`](Self::stop) is called. None if no thread could be started.
    pub fn start(
        name: &str,
        interval: Duration,
        mut tick: impl FnMut() + Send + 'static,
    ) -> Option<Ticker> {
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || loop {
                let stopped = flag.0.lock().unwrap_or_else(|e| e.into_inner());
                let (stopped, _) = flag
                    .1
                    .wait_timeout_while(stopped, interval, |s| !*s)
                    .unwrap_or_else(|e| e.into_inner());
                let last = *stopped;
                drop(stopped);
                tick();
                if last {
                    return;
                }
            })
            .ok()?;
        Some(Ticker {
            stop,
            thread: Some(thread),
        })
    }

    /// Asks for the last tick without waiting for it.
    pub fn stop(&self) {
        *self.stop.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.stop.1.notify_all();
    }

    /// Asks for the last tick and waits until it is done.
    pub fn finish(&mut self) {
        self.stop();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn ticks_and_a_last_one() {
        let n = Arc::new(AtomicU32::new(0));
        let c = Arc::clone(&n);
        let mut t = Ticker::start("t", Duration::from_millis(20), move || {
            c.fetch_add(1, Ordering::Relaxed);
        })
        .unwrap();
        std::thread::sleep(Duration::from_millis(110));
        t.finish();
        let ticks = n.load(Ordering::Relaxed);
        assert!(ticks >= 3, "{ticks}");
        t.finish();
        assert_eq!(n.load(Ordering::Relaxed), ticks, "one last tick only");
    }
}
