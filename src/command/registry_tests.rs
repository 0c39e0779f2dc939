//! The workload table against every global option: each workload honours an option or refuses
//! it by name, and the table is what the docs say (`docs/architecture.md`).

use super::*;
use crate::command::global::GlobalOption;

/// The workloads that refuse `option`; every other workload honours it.
fn refused_by(option: GlobalOption) -> &'static [&'static str] {
    match option {
        // Their files are named by the command line (dlio's data folder too); they make no
        // tree of their own.
        GlobalOption::AllowRootTarget => &["ior", "find", "dlio"],
        _ => &[],
    }
}

#[test]
fn every_global_option_is_honoured_or_refused_by_name() {
    for w in WORKLOADS {
        for option in GlobalOption::ALL {
            let verdict = w.supports.verdict(w.name, option);
            let refused = refused_by(option).contains(&w.name);
            match verdict {
                Ok(()) => assert!(!refused, "{} should refuse {}", w.name, option.name()),
                Err(message) => {
                    assert!(
                        refused,
                        "{} should honour {}: {message}",
                        w.name,
                        option.name()
                    );
                    assert!(
                        message.starts_with(option.name()) && message.contains(w.name),
                        "the refusal names the option and the workload: {message}"
                    );
                }
            }
        }
    }
}

#[test]
fn names_are_unique_and_every_row_is_complete() {
    let mut names: Vec<&str> = WORKLOADS.iter().map(|w| w.name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), WORKLOADS.len());
    for w in WORKLOADS {
        assert!(!w.about.is_empty() && !w.args.is_empty(), "{}", w.name);
        assert!(
            !w.examples.is_empty(),
            "{}: an example for `iogauge --help`",
            w.name
        );
        for (command, _) in w.examples {
            assert!(
                command.starts_with(&format!("iogauge {} ", w.name)),
                "{}: {command}",
                w.name
            );
        }
        assert!(
            (w.knob)("tasks").is_ok(),
            "{}: every workload varies its ranks",
            w.name
        );
        assert_eq!(find(w.name).map(|f| f.name), Some(w.name));
    }
    assert!(find("mpiio").is_none());
}
