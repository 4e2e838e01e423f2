//! The connect composer's checks as you type: core's `catalog::analyse` (the rules of `appdeck
//! validate` for a connect payload, the version warning, the outline, the changes against the
//! newest known version of the app), run here for a small payload and on a background task for
//! a large one.

use std::sync::Arc;

use crate::catalog::Baseline;
pub(crate) use crate::catalog::{Analysis, PayloadFinding};

/// What a background analysis needs, owned.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisJob {
    pub text: Arc<str>,
    pub known: Arc<Vec<Baseline>>,
}

/// A large payload is analysed off the UI thread.
impl crate::app::job::Job for AnalysisJob {
    type Output = Analysis;

    fn run(&self, _: &crate::app::job::Progress) -> Analysis {
        crate::catalog::analyse(&self.text, &self.known)
    }
}
