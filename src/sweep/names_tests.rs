//! What `--vary` names mean for each workload.
use crate::command::registry::knob as resolve;

#[test]
fn options_as_typed() {
    let t = resolve("ior", "t").unwrap();
    assert_eq!((t.option.as_str(), t.flag), ("-t", false));
    assert_eq!(t.words("t", "64k").unwrap(), ["-t", "64k"]);
    assert_eq!(
        resolve("ior", "transferSize").unwrap().option,
        "--transferSize"
    );
    let f = resolve("ior", "F").unwrap();
    assert!(f.flag);
    assert_eq!(f.words("F", "on").unwrap(), ["-F=1"]);
    assert_eq!(f.words("F", "off").unwrap(), ["-F=0"]);
    assert!(f.words("F", "maybe").unwrap_err().contains("on and off"));
    assert_eq!(resolve("mdtest", "n").unwrap().option, "-n");
    assert!(resolve("mdtest", "u").unwrap().flag);
    assert_eq!(resolve("ior", "tasks").unwrap().option, "--tasks");
    assert_eq!(resolve("ior", "fake-nodes").unwrap().option, "--fake-nodes");
    assert!(resolve("find", "fake-nodes").unwrap().global);
    assert_eq!(
        resolve("mix", "step-seconds").unwrap().option,
        "--step-seconds"
    );
    assert_eq!(
        resolve("startup", "common-size").unwrap().option,
        "--common-size"
    );
    assert_eq!(resolve("startup", "tasks").unwrap().option, "--tasks");
    assert!(resolve("startup", "fake-nodes").unwrap().global);
}

#[test]
fn unknown_names_are_refused_by_name() {
    let e = resolve("ior", "transfersize").unwrap_err();
    assert!(e.contains("ior has no option -transfersize"), "{e}");
    assert!(e.contains("did you mean transferSize"), "{e}");
    assert!(resolve("ior", "j")
        .unwrap_err()
        .contains("does not take it"));
    assert!(resolve("find", "name")
        .unwrap_err()
        .contains("tasks and fake-nodes only"));
    let e = resolve("startup", "keep").unwrap_err();
    assert!(e.contains("no option --keep that takes a value"), "{e}");
    assert!(resolve("startup", "comon-size")
        .unwrap_err()
        .contains("did you mean common-size"));
    assert!(resolve("fio", "t")
        .unwrap_err()
        .contains("a sweep runs ior"));
}
