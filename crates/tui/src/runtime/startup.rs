//! Logs how long after launch the first frame and the first rows reached the screen, so the
//! startup benchmark (benches/tui_startup.sh) can read them from the log file.

use std::time::Instant;

use crate::app::App;

pub(crate) struct StartupClock {
    started: Instant,
    first_frame: bool,
    first_rows: bool,
}

impl StartupClock {
    /// `started` is taken as early as possible in `main`.
    pub(crate) fn new(started: Instant) -> Self {
        StartupClock {
            started,
            first_frame: false,
            first_rows: false,
        }
    }

    /// Called after each frame is flushed to the terminal.
    pub(crate) fn after_draw(&mut self, app: &App) {
        let ms = self.started.elapsed().as_secs_f64() * 1000.0;
        if !self.first_frame {
            self.first_frame = true;
            tracing::info!("startup: first frame after {ms:.2} ms");
        }
        if !self.first_rows && !app.browser.visible.is_empty() {
            self.first_rows = true;
            tracing::info!("startup: first rows on screen after {ms:.2} ms");
        }
    }
}
