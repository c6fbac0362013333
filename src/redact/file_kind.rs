//! What kind of file a text came from, by its name: the same line means different things in a
//! `.env` file, a kubeconfig and a Rust source.
//!
//! In source code an unquoted right-hand side is an expression (`let token = next_token();`), in a
//! configuration file it is a literal (`password = hunter2secret`), and in a credentials file every
//! random-looking value is a credential whatever its key. Lock files hold integrity hashes
//! (`checksum = "…"`, `"integrity": "sha512-…"`): they are public digests of published packages,
//! not secrets, so only the token formats are looked for there.

/// How assignments in a text are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// `.env`, `.env.production`, `prod.env`, `.envrc`: every value is redacted but plain
    /// settings (`NODE_ENV=production`, `PORT=8080`, a URL without credentials).
    Env,
    /// `.npmrc`, `.netrc`, Docker `config.json`, kubeconfig, `.pypirc`, AWS `credentials`:
    /// secret-named values and every random-looking value are redacted.
    Credentials,
    /// `.env.example` and friends, INI/YAML/TOML/properties, shell scripts, Dockerfiles:
    /// unquoted values are literals.
    Config,
    /// Programming languages: unquoted values are code, quoted ones literals.
    Source,
    /// `Cargo.lock`, `package-lock.json`, ...: no assignment is a secret.
    Lock,
    /// Prose, commit messages, model answers, unknown files: unquoted values are literals only
    /// when they look like one (letters with digits or symbols).
    Other,
}

/// Suffixes of `.env.<suffix>` files that hold a template or a test setup, read as
/// configuration: `.env.test`'s `SECRET=test` is a fixture, not a secret.
const ENV_TEMPLATES: &[&str] = &[
    "example", "sample", "template", "dist", "defaults", "schema", "test", "testing",
];

/// Path parts of vendored and built code: a directory (`vendor/`, `node_modules/`) or Yarn's
/// checked-in release and plugin bundles.
const VENDORED_DIRS: &[&str] = &[
    "vendor",
    "vendors",
    "node_modules",
    "bower_components",
    "third_party",
    "third-party",
    "dist",
    ".yarn",
];

/// File name endings of minified or bundled code.
const MINIFIED_SUFFIXES: &[&str] = &[
    ".min.js",
    ".min.mjs",
    ".min.cjs",
    ".min.css",
    "-min.js",
    ".bundle.js",
    ".pnp.cjs",
    ".pnp.loader.mjs",
];

/// Extensions of code that is shipped minified (scripts and stylesheets): a line this long in one
/// is a build's output, never a person's.
const MINIFIABLE_EXTENSIONS: &[&str] = &["js", "mjs", "cjs", "css", "map"];

/// A line longer than this in a script or stylesheet marks it minified.
const MINIFIED_LINE: usize = 1000;

const CREDENTIAL_NAMES: &[&str] = &[
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".netrc",
    "_netrc",
    ".pypirc",
    ".pgpass",
    ".dockercfg",
    ".git-credentials",
    "kubeconfig",
    "credentials",
    "credentials.json",
    "service-account.json",
];

/// Path endings that name a credentials file whatever the base name says.
const CREDENTIAL_SUFFIXES: &[&str] = &[
    ".docker/config.json",
    ".kube/config",
    ".kubeconfig",
    ".aws/credentials",
    ".aws/config",
];

const LOCK_NAMES: &[&str] = &[
    "cargo.lock",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lock",
    "poetry.lock",
    "pipfile.lock",
    "uv.lock",
    "gemfile.lock",
    "composer.lock",
    "go.sum",
    "flake.lock",
    "podfile.lock",
    "mix.lock",
    "packages.lock.json",
];

const CONFIG_EXTENSIONS: &[&str] = &[
    "ini",
    "cfg",
    "conf",
    "config",
    "cnf",
    "properties",
    "yaml",
    "yml",
    "toml",
    "tfvars",
    "hcl",
    "tf",
    "sh",
    "bash",
    "zsh",
    "ps1",
    "env",
    "xml",
    "plist",
];

const CONFIG_NAMES: &[&str] = &[
    "dockerfile",
    "containerfile",
    "makefile",
    ".gitconfig",
    ".pgpass",
];

const SOURCE_EXTENSIONS: &[&str] = &[
    "rs", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "py", "pyi", "go", "java", "kt",
    "kts", "scala", "c", "h", "cc", "cpp", "cxx", "hpp", "cs", "fs", "rb", "php", "swift", "m",
    "mm", "dart", "lua", "ex", "exs", "erl", "hs", "ml", "clj", "cljs", "groovy", "vue", "svelte",
    "r", "jl", "zig", "nim", "v", "sol", "pl", "pm", "map",
];

/// The kind of the file at `path` (`None`: not a file at all).
pub fn kind_of(path: Option<&str>) -> FileKind {
    let Some(path) = path else {
        return FileKind::Other;
    };
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit(['/', '\\']).next().unwrap_or(&lower);
    if let Some(rest) = name.strip_prefix(".env") {
        let suffix = rest.trim_start_matches('.');
        if ENV_TEMPLATES
            .iter()
            .any(|t| suffix.split('.').any(|p| p == *t))
        {
            return FileKind::Config;
        }
        if rest.is_empty() || rest.starts_with('.') || rest == "rc" {
            return FileKind::Env;
        }
    }
    if name.ends_with(".env") {
        return FileKind::Env;
    }
    if CREDENTIAL_NAMES.contains(&name) || CREDENTIAL_SUFFIXES.iter().any(|s| lower.ends_with(s)) {
        return FileKind::Credentials;
    }
    if LOCK_NAMES.contains(&name) {
        return FileKind::Lock;
    }
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    if CONFIG_NAMES.contains(&name) || CONFIG_EXTENSIONS.contains(&ext) {
        FileKind::Config
    } else if SOURCE_EXTENSIONS.contains(&ext) {
        FileKind::Source
    } else {
        FileKind::Other
    }
}

fn file_name(path: Option<&str>) -> Option<String> {
    let lower = path?.to_ascii_lowercase();
    Some(
        lower
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(&lower)
            .to_string(),
    )
}

/// Whether `text` from `path` is minified or vendored code, by what the file is: its place
/// (`vendor/`, `node_modules/`, `.yarn/releases/`, `dist/`), its name (`*.min.js`), or, for a
/// script or stylesheet, a line of more than [`MINIFIED_LINE`] characters.
pub fn is_vendored(path: Option<&str>, text: &str) -> bool {
    let Some(path) = path else {
        return false;
    };
    let lower = path.to_ascii_lowercase();
    let mut dirs = lower.split(['/', '\\']);
    let name = dirs.next_back().unwrap_or("");
    if dirs.any(|d| VENDORED_DIRS.contains(&d))
        || MINIFIED_SUFFIXES.iter().any(|s| name.ends_with(s))
    {
        return true;
    }
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    MINIFIABLE_EXTENSIONS.contains(&ext) && text.split('\n').any(|l| l.len() > MINIFIED_LINE)
}

/// A `.netrc`: bare `password x` lines are its syntax there (not in `.pypirc`, where `password =
/// x` is an assignment).
pub fn is_netrc(path: Option<&str>) -> bool {
    file_name(path).is_some_and(|n| n == ".netrc" || n == "_netrc")
}

/// A raw key file (`config/master.key`, `config/credentials/production.key`): a bare random line
/// in it is the key itself.
pub fn is_key_file(path: Option<&str>) -> bool {
    file_name(path).is_some_and(|n| n.ends_with(".key"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_name() {
        for (path, kind) in [
            (".env", FileKind::Env),
            ("config/.env.production", FileKind::Env),
            ("deploy/prod.env", FileKind::Env),
            (".envrc", FileKind::Env),
            (".env.example", FileKind::Config),
            (".env.local.sample", FileKind::Config),
            (".npmrc", FileKind::Credentials),
            ("home/.netrc", FileKind::Credentials),
            ("_netrc", FileKind::Credentials),
            ("home/.docker/config.json", FileKind::Credentials),
            ("ops/.kube/config", FileKind::Credentials),
            ("ops/staging.kubeconfig", FileKind::Credentials),
            ("Cargo.lock", FileKind::Lock),
            ("web/package-lock.json", FileKind::Lock),
            ("settings.ini", FileKind::Config),
            ("Dockerfile", FileKind::Config),
            ("src/main.rs", FileKind::Source),
            ("app/index.ts", FileKind::Source),
            ("README.md", FileKind::Other),
            ("config.json", FileKind::Other),
            (".env.test", FileKind::Config),
        ] {
            assert_eq!(kind_of(Some(path)), kind, "{path}");
        }
        assert_eq!(kind_of(None), FileKind::Other);
        assert!(is_netrc(Some("home/.netrc")) && !is_netrc(Some(".pypirc")));
        assert!(is_key_file(Some("config/master.key")) && !is_key_file(Some("keys.rs")));
    }

    #[test]
    fn vendored_and_minified_code_is_known() {
        let short = "const a = 1;\n";
        let long = format!("!function(){{{}}}();\n", "var a=1;".repeat(200));
        for (path, text) in [
            (".yarn/releases/yarn-4.1.0.cjs", short),
            ("vendor/chart.min.js", short),
            ("web/static/app.min.css", short),
            ("node_modules/x/index.js", short),
            ("static/js/app.js", long.as_str()),
        ] {
            assert!(is_vendored(Some(path), text), "{path}");
        }
        for (path, text) in [
            ("src/app.js", short),
            ("config/settings.json", long.as_str()),
            ("docs/vendor-guide.md", short),
        ] {
            assert!(!is_vendored(Some(path), text), "{path}");
        }
    }
}
