//! The release path: `scripts/install.sh` downloads a release archive from a fake release server
//! on 127.0.0.1, installs only what matches its checksum, and installs the manual page with it;
//! the release workflow, the composite action and the package metadata hold together.

use std::path::Path;
use std::process::Command;

use crate::common::http::FakeHttp;
use crate::common::{to_run, Run, TestEnv};

const TARGET: &str = "x86_64-unknown-linux-musl";

fn project() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A release archive as `.github/workflows/release.yml` makes it (the built binary standing in for
/// the release's), and its `.sha256` line.
fn release(env: &TestEnv) -> (Vec<u8>, String) {
    let name = format!("git-debate-{TARGET}");
    let stage = env.root.join("stage").join(&name);
    std::fs::create_dir_all(&stage).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_git-debate"), stage.join("git-debate")).unwrap();
    std::fs::copy(project().join("README.md"), stage.join("README.md")).unwrap();
    let archive = env.root.join(format!("{name}.tar.gz"));
    let tar = Command::new("tar")
        .arg("-czf")
        .arg(&archive)
        .arg("-C")
        .arg(env.root.join("stage"))
        .arg(&name)
        .status()
        .unwrap();
    assert!(tar.success());
    let sum = Command::new("sha256sum").arg(&archive).output().unwrap();
    let hash = String::from_utf8_lossy(&sum.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    (
        std::fs::read(&archive).unwrap(),
        format!("{hash}  {name}.tar.gz\n"),
    )
}

fn install(env: &TestEnv, server: &FakeHttp, args: &[&str], dir: &Path) -> Run {
    to_run(
        Command::new("sh")
            .arg(project().join("scripts/install.sh"))
            .args(args)
            .arg("--dir")
            .arg(dir)
            .env("HOME", &env.home)
            .env("GIT_DEBATE_RELEASES", format!("{}/releases", server.url))
            .env("GIT_DEBATE_TARGET", TARGET)
            .env_remove("GIT_DEBATE_VERSION")
            .env_remove("GIT_DEBATE_INSTALL_DIR")
            .output()
            .unwrap(),
    )
}

#[test]
fn the_install_script_installs_a_verified_release_and_its_manual_page() {
    let env = TestEnv::new();
    let (archive, sum) = release(&env);
    let name = format!("git-debate-{TARGET}.tar.gz");
    let server = FakeHttp::start(move |r| {
        let file = r.path.rsplit('/').next().unwrap_or("");
        let good = r.path.starts_with("/releases/download/v0.1.0/")
            || r.path.starts_with("/releases/latest/download/");
        let tampered = r.path.starts_with("/releases/download/v0.0.9/");
        match file {
            f if f == name && (good || tampered) => (200, "application/gzip", archive.clone()),
            f if f == format!("{name}.sha256") && good => (200, "text/plain", sum.clone().into()),
            f if f == format!("{name}.sha256") && tampered => (
                200,
                "text/plain",
                format!("{}  {name}\n", "0".repeat(64)).into(),
            ),
            _ => (404, "text/plain", b"not found".to_vec()),
        }
    });

    let dir = env.root.join("tools/bin");
    let run = install(&env, &server, &["--version", "0.1.0"], &dir);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("git-debate installed"),
        "{}",
        run.stdout
    );
    let installed = to_run(
        Command::new(dir.join("git-debate"))
            .arg("--version")
            .output()
            .unwrap(),
    );
    assert!(
        installed.stdout.starts_with("git-debate"),
        "{}",
        installed.stdout
    );
    assert!(
        env.root.join("tools/share/man/man1/git-debate.1").is_file(),
        "the manual page beside the binary, so `git debate --help` works"
    );
    let paths: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(
        paths,
        [
            format!("/releases/download/v0.1.0/git-debate-{TARGET}.tar.gz"),
            format!("/releases/download/v0.1.0/git-debate-{TARGET}.tar.gz.sha256"),
        ]
    );

    // Without --version: the newest release.
    let latest = env.root.join("latest/bin");
    install(&env, &server, &[], &latest).ok();
    assert!(latest.join("git-debate").is_file());

    // An archive that does not match its checksum installs nothing.
    let other = env.root.join("other/bin");
    let bad = install(&env, &server, &["--version", "v0.0.9"], &other);
    assert_eq!(bad.code, 1, "{}{}", bad.stdout, bad.stderr);
    assert!(bad.stderr.contains("checksum mismatch"), "{}", bad.stderr);
    assert!(!other.join("git-debate").exists());

    // A release that is not there: said, and nothing installed.
    let missing = install(&env, &server, &["--version", "9.9.9"], &other);
    assert_eq!(missing.code, 1);
    assert!(
        missing.stderr.contains("cannot download"),
        "{}",
        missing.stderr
    );
}

fn yaml(path: &str) -> serde_yaml_ng::Value {
    serde_yaml_ng::from_str(&std::fs::read_to_string(project().join(path)).unwrap()).unwrap()
}

/// The targets the release builds, the install script knows and binstall downloads.
const TARGETS: &[&str] = &[
    "x86_64-unknown-linux-musl",
    "aarch64-unknown-linux-musl",
    "x86_64-apple-darwin",
    "aarch64-apple-darwin",
];

#[test]
fn the_release_workflow_builds_what_the_installers_download() {
    let wf = yaml(".github/workflows/release.yml");
    let tags = &wf["on"]["push"]["tags"][0];
    assert_eq!(tags.as_str(), Some("v*"));
    let build = &wf["jobs"]["build"];
    let targets: Vec<&str> = build["strategy"]["matrix"]["include"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|t| t["target"].as_str().unwrap())
        .collect();
    assert_eq!(targets, TARGETS);
    let steps = serde_yaml_ng::to_string(&build["steps"]).unwrap();
    for part in [
        "--locked",
        "name=\"git-debate-$TARGET\"",
        "\"$name.tar.gz.sha256\"",
        "man/git-debate.1",
    ] {
        assert!(steps.contains(part), "{part} missing from the build steps");
    }
    let release = &wf["jobs"]["release"];
    assert_eq!(release["permissions"]["contents"].as_str(), Some("write"));
    assert_eq!(wf["permissions"]["contents"].as_str(), Some("read"));
    // The install script maps each machine to one of these targets.
    let script = std::fs::read_to_string(project().join("scripts/install.sh")).unwrap();
    assert!(script.contains("target=$arch-unknown-linux-musl"));
    assert!(script.contains("target=$arch-apple-darwin"));
    assert!(script.contains("archive=git-debate-$target.tar.gz"));
    // cargo binstall: the same archive and folder.
    let manifest = std::fs::read_to_string(project().join("Cargo.toml")).unwrap();
    assert!(manifest.contains(
        r#"pkg-url = "{ repo }/releases/download/v{ version }/{ name }-{ target }.tar.gz""#
    ));
    assert!(manifest.contains(r#"bin-dir = "{ name }-{ target }/{ bin }{ binary-ext }""#));
}

/// The `run` script of the action's step with this id.
fn action_step(id: &str) -> String {
    let action = yaml("action.yml");
    action["runs"]["steps"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|s| s["id"].as_str() == Some(id))
        .and_then(|s| s["run"].as_str())
        .unwrap_or_else(|| panic!("no step {id}"))
        .to_string()
}

#[test]
fn the_action_is_a_composite_with_the_inputs_it_uses() {
    let action = yaml("action.yml");
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    let inputs = action["inputs"].as_mapping().unwrap();
    for name in [
        "reviewer",
        "author",
        "fail-on",
        "format",
        "version",
        "anthropic-api-key",
        "openai-api-key",
    ] {
        assert!(
            inputs.contains_key(name),
            "input {name} missing from action.yml"
        );
    }
    let text = std::fs::read_to_string(project().join("action.yml")).unwrap();
    let used = regex::Regex::new(r"inputs\.([a-z-]+)").unwrap();
    for c in used.captures_iter(&text) {
        assert!(
            inputs.contains_key(&c[1]),
            "inputs.{} is not declared",
            &c[1]
        );
    }
    for step in action["runs"]["steps"].as_sequence().unwrap() {
        if step.get("run").is_some() {
            assert_eq!(step["shell"].as_str(), Some("bash"), "{step:?}");
        }
    }
    assert!(action_step("install").contains("$GITHUB_ACTION_PATH/scripts/install.sh"));
    let review = action_step("review");
    assert!(review.contains("--scope \"base:origin/$BASE\""));
    assert!(
        review.contains("--unshallow"),
        "a shallow checkout has no merge-base"
    );
}

#[test]
fn the_action_without_keys_fails_not_evaluated_and_says_why() {
    let env = TestEnv::new();
    let out = env.root.join("github-output");
    let run = to_run(
        Command::new("bash")
            .args(["-e", "-c", &action_step("review")])
            .current_dir(&env.root)
            .env("GITHUB_OUTPUT", &out)
            .env("ANTHROPIC_API_KEY", "")
            .env("OPENAI_API_KEY", "")
            .env("GEMINI_API_KEY", "")
            .env("BASE", "main")
            .output()
            .unwrap(),
    );
    assert_eq!(run.code, 3, "a fork's pull request is never a pass");
    assert!(
        run.stdout
            .contains("::error title=git debate::no model API key"),
        "{}",
        run.stdout
    );
}

/// Every file the program embeds (`include_str!` outside tests) is in the published package,
/// and nothing of the tests, benches or build output is.
#[test]
fn the_package_holds_what_the_build_needs_and_no_tests() {
    let manifest = std::fs::read_to_string(project().join("Cargo.toml")).unwrap();
    for key in [
        "description",
        "license",
        "repository",
        "readme",
        "keywords",
        "categories",
        "rust-version",
        "include",
    ] {
        assert!(
            manifest
                .lines()
                .any(|l| l.starts_with(&format!("{key} = "))),
            "Cargo.toml has no {key}"
        );
    }
    assert!(manifest.contains(r#"license = "MIT OR Apache-2.0""#));
    for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
        assert!(project().join(licence).is_file(), "{licence}");
    }
    let list = Command::new(env!("CARGO"))
        .args(["package", "--list", "--allow-dirty", "--offline"])
        .current_dir(project())
        .output()
        .unwrap();
    assert!(
        list.status.success(),
        "{}",
        String::from_utf8_lossy(&list.stderr)
    );
    let files: Vec<String> = String::from_utf8_lossy(&list.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert!(
        !files.iter().any(|f| f.starts_with("tests/")
            || f.starts_with("benches/")
            || f.starts_with("target/")
            || f.starts_with(".ci/")),
        "{files:#?}"
    );
    let embed = regex::Regex::new(r#"include_str!\("([^"]+)"\)"#).unwrap();
    let mut checked = 0;
    for f in files
        .iter()
        .filter(|f| f.starts_with("src/") && f.ends_with(".rs"))
    {
        if f.ends_with("tests.rs") || f.contains("/tests/") {
            continue;
        }
        let text = std::fs::read_to_string(project().join(f)).unwrap();
        // Unit tests may embed test fixtures; the build does not need them.
        let code = text.split("#[cfg(test)]").next().unwrap();
        for c in embed.captures_iter(code) {
            let dir = Path::new(f).parent().unwrap();
            let mut path = dir.to_path_buf();
            for part in Path::new(&c[1]).components() {
                match part {
                    std::path::Component::ParentDir => {
                        path.pop();
                    }
                    p => path.push(p),
                }
            }
            let path = path.to_string_lossy().replace('\\', "/");
            assert!(
                files.contains(&path),
                "{f} embeds {path}, not in the package"
            );
            checked += 1;
        }
    }
    assert!(checked > 10, "only {checked} embedded files found");
}
