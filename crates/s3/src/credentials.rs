//! Where the S3 credentials come from, as the AWS tools look for them: the access key from
//! `--s3.access-key`, `AWS_ACCESS_KEY_ID` or the shared credentials file; the secret from
//! `--s3.secret-key-file`, `AWS_SECRET_ACCESS_KEY` or that file, never from an option's value
//! (a command line is recorded and shown); the session token from `AWS_SESSION_TOKEN` or the
//! file. The file is `AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`, its profile
//! `AWS_PROFILE`, else `default`. Pure but for reading the files: the environment is a
//! function, so tests need not set variables.

use std::path::{Path, PathBuf};

use engine::Secret;

/// What the command line gave.
#[derive(Debug, Clone, Default)]
pub struct Given<'a> {
    /// `--s3.access-key`: the key's ID, which may be shown.
    pub access_key: Option<&'a str>,
    /// The secret `--s3.secret-key-file` named (read by the option's parser).
    pub secret: Option<Secret>,
}

/// The credentials of a run. The secret and the token print as `<secret>`.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub access_key: String,
    pub secret: Secret,
    pub session_token: Option<Secret>,
    /// Where the secret came from, for messages (never the secret).
    pub secret_from: String,
}

/// The credentials an engine's options name: `<module>.access-key` and
/// `<module>.secret-key-file` (`s3`, `S3-libs3`), else the process's environment and the shared
/// file under `$HOME`; messages name the module's options.
pub fn from_config(cfg: &engine::EngineConfig, module: &str) -> Result<Credentials, String> {
    let access_key = cfg.text(&format!("{module}.access-key"));
    let secret = cfg.secret(&format!("{module}.secret-key-file"));
    let home = std::env::var_os("HOME");
    resolve(
        &Given {
            access_key: access_key.as_deref(),
            secret,
        },
        &|k| std::env::var(k).ok(),
        home.as_deref().map(Path::new),
    )
    .map_err(|e| e.replace("--s3.", &format!("--{module}.")))
}

/// The `[profile]` of a shared credentials file: its `key = value` lines.
fn profile(text: &str, name: &str) -> Option<Vec<(String, String)>> {
    let mut inside = false;
    let mut found = false;
    let mut pairs = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(section) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let section = section.trim();
            inside = section == name || section == format!("profile {name}");
            found |= inside;
            continue;
        }
        if inside {
            if let Some((k, v)) = line.split_once('=') {
                pairs.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
    }
    found.then_some(pairs)
}

fn lookup(pairs: &[(String, String)], key: &str) -> Option<String> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
        .filter(|v| !v.is_empty())
}

/// The credentials from `given`, the environment `env` and the shared file under `home`.
/// Err is one line naming where they were looked for; it never holds a secret.
pub fn resolve(
    given: &Given,
    env: &dyn Fn(&str) -> Option<String>,
    home: Option<&Path>,
) -> Result<Credentials, String> {
    let var = |k: &str| env(k).filter(|v| !v.is_empty());
    let profile_name = var("AWS_PROFILE").unwrap_or_else(|| "default".into());
    let file: Option<PathBuf> = var("AWS_SHARED_CREDENTIALS_FILE")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".aws/credentials")));
    let from_file = match &file {
        Some(f) if f.exists() => {
            let text = std::fs::read_to_string(f)
                .map_err(|e| format!("{}: {}", f.display(), engine::errno::describe(&e)))?;
            profile(&text, &profile_name)
        }
        _ => None,
    };
    let file_value = |k: &str| from_file.as_deref().and_then(|p| lookup(p, k));
    let file_name = || {
        format!(
            "{} [{profile_name}]",
            file.as_deref()
                .map_or_else(String::new, |f| f.display().to_string())
        )
    };
    let access_key = given
        .access_key
        .map(str::to_string)
        .or_else(|| var("AWS_ACCESS_KEY_ID"))
        .or_else(|| file_value("aws_access_key_id"))
        .ok_or_else(|| {
            format!(
                "no S3 access key: give --s3.access-key, or set AWS_ACCESS_KEY_ID, or put \
                 aws_access_key_id in {}",
                file_name()
            )
        })?;
    let (secret, secret_from) = if let Some(s) = &given.secret {
        (s.clone(), "--s3.secret-key-file".to_string())
    } else if let Some(s) = var("AWS_SECRET_ACCESS_KEY") {
        (Secret::new(s), "AWS_SECRET_ACCESS_KEY".to_string())
    } else if let Some(s) = file_value("aws_secret_access_key") {
        (Secret::new(s), file_name())
    } else {
        return Err(format!(
            "no S3 secret key: give --s3.secret-key-file FILE, or set AWS_SECRET_ACCESS_KEY, \
             or put aws_secret_access_key in {} (a secret is never taken from an option's value)",
            file_name()
        ));
    };
    let session_token = var("AWS_SESSION_TOKEN")
        .or_else(|| file_value("aws_session_token"))
        .map(Secret::new);
    Ok(Credentials {
        access_key,
        secret,
        session_token,
        secret_from,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn options_then_environment_then_the_profile_of_the_shared_file() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir(home.path().join(".aws")).unwrap();
        std::fs::write(
            home.path().join(".aws/credentials"),
            "[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = filesecret\n\
             [profile lab]\naws_access_key_id=LABKEY\naws_secret_access_key=labsecret\n\
             aws_session_token = labtoken\n",
        )
        .unwrap();
        let c = resolve(&Given::default(), &env(&[]), Some(home.path())).unwrap();
        assert_eq!(
            (c.access_key.as_str(), c.secret.expose()),
            ("FILEKEY", Some("filesecret"))
        );
        let c = resolve(
            &Given::default(),
            &env(&[("AWS_PROFILE", "lab")]),
            Some(home.path()),
        )
        .unwrap();
        assert_eq!(c.access_key, "LABKEY");
        assert_eq!(c.session_token.unwrap().expose(), Some("labtoken"));
        let e = env(&[
            ("AWS_ACCESS_KEY_ID", "ENVKEY"),
            ("AWS_SECRET_ACCESS_KEY", "envsecret"),
        ]);
        let c = resolve(&Given::default(), &e, Some(home.path())).unwrap();
        assert_eq!(
            (c.access_key.as_str(), c.secret.expose()),
            ("ENVKEY", Some("envsecret"))
        );
        assert_eq!(c.secret_from, "AWS_SECRET_ACCESS_KEY");
        let key_file = home.path().join("key");
        std::fs::write(&key_file, "optsecret\n").unwrap();
        let secret = Secret::read_file("s3.secret-key-file", &key_file).unwrap();
        let given = Given {
            access_key: Some("OPTKEY"),
            secret: Some(secret),
        };
        let c = resolve(&given, &e, Some(home.path())).unwrap();
        assert_eq!(
            (c.access_key.as_str(), c.secret.expose()),
            ("OPTKEY", Some("optsecret"))
        );
        assert!(!format!("{c:?}").contains("optsecret"), "{c:?}");
    }

    #[test]
    fn missing_credentials_name_every_place_looked() {
        let home = tempfile::tempdir().unwrap();
        let e = resolve(&Given::default(), &env(&[]), Some(home.path())).unwrap_err();
        assert!(
            e.contains("AWS_ACCESS_KEY_ID") && e.contains("--s3.access-key"),
            "{e}"
        );
        let e = resolve(
            &Given::default(),
            &env(&[("AWS_ACCESS_KEY_ID", "K")]),
            Some(home.path()),
        )
        .unwrap_err();
        assert!(
            e.contains("--s3.secret-key-file") && e.contains("AWS_SECRET_ACCESS_KEY"),
            "{e}"
        );
    }
}
