//! The IO500's text as the run goes: pieces of result.txt, lines of result_summary.txt (also
//! on the console), invalid marks and warnings. They go to the session as notices; the
//! binary's result-directory sink writes the files and the console (and, in a dry run, shows
//! result.txt's text on the console instead).

use results::sink::{Io500Text, Notice};

use crate::session::Session;

pub(super) struct Text<'a> {
    pub session: &'a Session,
}

impl Text<'_> {
    fn send(&mut self, t: Io500Text<'_>) {
        self.session.hub().notice(&Notice::Io500(&t));
    }

    /// A piece of result.txt.
    pub fn txt(&mut self, s: &str) {
        self.send(Io500Text::Result(s));
    }

    /// `dupprintf`: result_summary.txt and the console.
    pub fn summary(&mut self, s: &str) {
        self.send(Io500Text::Summary(s));
    }

    pub fn invalid(&mut self, context: &str, reason: &str) {
        self.send(Io500Text::Invalid { context, reason });
    }

    pub fn warning(&mut self, text: &str) {
        self.send(Io500Text::Warning(text));
    }
}
