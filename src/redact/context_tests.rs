//! Tests of the secrets found by their place: command-line flags, connection strings, call
//! arguments, Kubernetes `Secret` manifests, key files, prose, glued tokens; and of the damage
//! the earlier rules did (`_auth` names in code, `.pypirc` read as a `.netrc`).

use super::*;

/// `(path, text, secret)`: the secret must be gone and the text around it kept.
fn caught(cases: &[(Option<&str>, &str, &str)]) {
    for (path, text, secret) in cases {
        let r = redact(text, *path);
        assert!(!r.text.contains(secret), "{path:?}: {text} -> {}", r.text);
        assert!(r.count > 0, "{text}");
        assert_eq!(
            redact(&r.text, *path).count,
            0,
            "not idempotent: {}",
            r.text
        );
    }
}

#[test]
fn command_line_passwords_are_caught() {
    caught(&[
        (
            Some(".gitlab-ci.yml"),
            "    - docker login -u ci -p bbD21z0D.53 registry.io",
            "bbD21z0D.53",
        ),
        (
            Some("ci.sh"),
            "docker login --password=Xy7#kq99 r.io",
            "Xy7#kq99",
        ),
        (
            Some("notify.sh"),
            "curl -fsS -u bot:a_LOasv4mT60Qj https://ci.io/x",
            "a_LOasv4mT60Qj",
        ),
        (
            Some("notify.sh"),
            "curl --user 'bot:Pw9!xx' https://ci.io",
            "Pw9!xx",
        ),
        (
            Some("cert.sh"),
            "openssl pkcs12 -export -out a.p12 -passout pass:6xAGG-DR6",
            "6xAGG-DR6",
        ),
        (
            Some("cert.sh"),
            "keytool -importkeystore -deststorepass aoYRF_kU3 -noprompt",
            "aoYRF_kU3",
        ),
        (
            Some("cert.sh"),
            "keytool -genkey -storepass s3cret!! -keypass k3y!pass",
            "k3y!pass",
        ),
        (Some("db.sh"), "mysql -u root -pS3cr3tPw shop", "S3cr3tPw"),
        (
            Some("etl.sh"),
            "sqlplus -s etl/6raI35QIC@//ora:1521/PDB @load.sql",
            "6raI35QIC",
        ),
        (
            Some("Etl.java"),
            "\"jdbc:oracle:thin:etl/6raI35QIC@//ora:1521/PDB\"",
            "6raI35QIC",
        ),
        (
            Some("Db.kt"),
            "val u = \"jdbc:postgresql://r:5432/r?user=u&password=mG8bk~X.4&ssl=true\"",
            "mG8bk~X.4",
        ),
        (
            Some("a.json"),
            "\"Server=tcp:s,1433;User ID=a;Pwd=Uiyx5G#2;Encrypt=True\"",
            "Uiyx5G#2",
        ),
        (
            Some("a.json"),
            "\"Endpoint=sb://x/;SharedAccessKeyName=Root;SharedAccessKey=inuWDsQKJKASKt/EKcqwbS=\"",
            "inuWDsQKJKASKt",
        ),
        (
            Some(".pgpass"),
            "pg.internal:5432:*:replicator:BZFlBdmN4pk#Z*",
            "BZFlBdmN4pk",
        ),
        (
            Some("api.http"),
            "Authorization: SSWS 00XdDiH4Wk0HEVY4H9DUcpmIz",
            "00XdDiH4Wk0HEVY4H9DUcpmIz",
        ),
    ]);
}

#[test]
fn names_by_position_are_caught() {
    caught(&[
        (
            Some("wp-config.php"),
            "define( 'DB_PASSWORD', 'V_15>LB!VXv+B' );",
            "V_15>LB!VXv+B",
        ),
        (
            Some("wp-config.php"),
            "define( 'LOGGED_IN_KEY', '/!,4+3vZRH;e]Y1vHLcT(4!P[C+YG5>MrS0(l3s<<OzE_>1h' );",
            "vZRH;e]Y1vHLcT",
        ),
        (
            Some("settings.py"),
            "SECRET_KEY = os.environ.get(\"DJANGO_SECRET_KEY\", \"9yj64u7j_kwx!x@r0\")",
            "9yj64u7j_kwx",
        ),
        (
            Some("config/database.yml"),
            "  password: <%= ENV.fetch(\"DB_PASSWORD\", \"Falcon*orchid17\") %>",
            "Falcon*orchid17",
        ),
        (
            Some("pay.rb"),
            "key = ENV.fetch('API_TOKEN') { 'tok3n-4xz9q' }",
            "tok3n-4xz9q",
        ),
        (
            Some("app.js"),
            "const s = process.env.JWT_SECRET || \"dev-s3cret-99\";",
            "dev-s3cret-99",
        ),
        (
            Some("app.ts"),
            "const k = env.API_KEY ?? 'k-12345678';",
            "k-12345678",
        ),
        (
            Some("app/__init__.py"),
            "app.config[\"SECRET_KEY\"] = \"c4d4c88bc14d2a5c\"",
            "c4d4c88bc14d2a5c",
        ),
        (
            Some("config/secrets.yml"),
            "production:\n  secret_key_base: 49424cc08b1f7161",
            "49424cc08b1f7161",
        ),
    ]);
}

#[test]
fn kubernetes_secrets_key_files_and_prose_are_caught() {
    let manifest = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  username: YXBp\n  database-url: cG9zdGdyZXM6Ly9h\n  tls.key: |\n    TUlJRXZRSUJBREFO\n";
    caught(&[
        (Some("k8s/s.yaml"), manifest, "cG9zdGdyZXM6Ly9h"),
        (Some("k8s/s.yaml"), manifest, "TUlJRXZRSUJBREFO"),
        (
            Some("k8s/s.yaml"),
            &format!("+{}", manifest.replace('\n', "\n+")),
            "cG9zdGdyZXM6Ly9h",
        ),
        (
            Some("k8s/s.yaml"),
            "kind: Secret\nstringData:\n  SMTP_PASSWORD: wdpimZCgcOr\n",
            "wdpimZCgcOr",
        ),
        (
            Some("config/master.key"),
            "+17b1f97b41c9988f3918d346eb0bb5a9",
            "17b1f97b41c9988f",
        ),
        (
            None,
            "Hardcode the staging DB password (Copper#copper95) for now",
            "Copper#copper95",
        ),
        (None, "the password is hunter22.", "hunter22"),
        (None, "pw: Zz9!kk", "Zz9!kk"),
    ]);
    // The metadata and other kinds of documents keep their values.
    let r = redact(manifest, Some("k8s/s.yaml"));
    assert!(
        r.text.contains("name: db") && r.text.contains("apiVersion: v1"),
        "{}",
        r.text
    );
    let map = "kind: ConfigMap\ndata:\n  mode: fast\n";
    assert_eq!(redact(map, Some("k8s/c.yaml")).count, 0);
    assert_eq!(redact("a plain line\n", Some("config/master.key")).count, 0);
}

#[test]
fn tokens_glued_with_underscores_are_caught() {
    let rk = ["rk_live_", "mMQBNKox3xBX1udFNCib2J8Mb"].concat();
    let gh = ["ghp_", "41UjE5fxklI2n27uY6rUdRxZaumxuJZfZlUX"].concat();
    let at = [
        "ATATT3xFfGF0",
        &"oLZ5FgQ8fiugfEBeq23qV_iIBsCj-".repeat(6),
        "=AA2980D5",
    ]
    .concat();
    for (text, secret) in [
        (format!("spec/cassettes/stripe_{rk}_charges.yml"), &rk),
        (format!("x_{gh}_y.json"), &gh),
        (format!("basic_auth=(\"ops@acme.io\", \"{at}\")"), &at),
    ] {
        let r = redact(&text, None);
        assert!(!r.text.contains(secret.as_str()), "{}", r.text);
        assert!(
            r.text.ends_with("_charges.yml")
                || r.text.ends_with("_y.json")
                || r.text.ends_with("\")"),
            "{}",
            r.text
        );
    }
}

#[test]
fn code_and_prose_that_only_look_alike_are_left_alone() {
    for (path, text) in [
        // Names ending in `_auth` in code are not `.npmrc` keys.
        (
            "requests/auth.py",
            "s_auth = r.headers.get(\"www-authenticate\", \"\")",
        ),
        (
            "requests/models.py",
            "new_auth = get_netrc_auth(url) if self.trust_env else None",
        ),
        ("requests/x.py", "basic_auth = HTTPBasicAuth(user, pw)"),
        // A netrc line inside a string stops at the quote; placeholders stay.
        (
            "tests/test_utils.py",
            "f.write(\"machine x login y password $PASS\\n\")",
        ),
        (
            "deploy.sh",
            "docker login -u \"$USER\" -p \"$CI_JOB_TOKEN\" $REGISTRY",
        ),
        (
            "deploy.sh",
            "echo \"$PW\" | docker login --password-stdin -u ci r.io",
        ),
        ("deploy.sh", "curl -u \"$USER:$TOKEN\" https://x.io"),
        ("cert.sh", "keytool -list -storepass changeit"),
        ("mkdir.sh", "mkdir -p build/out"),
        (
            "app.py",
            "parser.add_argument(\"--password\", help=\"the password\")",
        ),
        (
            "app.py",
            "url = f\"{base}?user={user}&password={password}\"",
        ),
        ("app.js", "const t = options.token || ''"),
        ("app.py", "password = os.environ.get(\"DB_PASSWORD\", \"\")"),
        (
            "doc.md",
            "The password is required. Set the password (see below).",
        ),
        ("doc.md", "docker pull library/nginx@sha256:abcdef0123"),
    ] {
        let r = redact(text, Some(path));
        assert_eq!(r.count, 0, "{path}: {text} -> {}", r.text);
    }
    // `.npmrc` keys still are.
    let npmrc = "//nexus.acme.io/repository/npm-private/:_auth=Y2k6UUl3Z2MxeW1lVGtoYl9YZQ==\n";
    assert_eq!(
        redact(npmrc, Some(".npmrc")).kinds.get("npm-auth"),
        Some(&1)
    );
    // `.pypirc` keeps its `=`; a `.netrc` still has its bare `password` read.
    let pypirc = "[internal]\nusername = bot\npassword = yNKswM4DvGM9K#A1-9\n";
    let r = redact(pypirc, Some(".pypirc"));
    assert!(r.text.contains("password = [REDACTED:"), "{}", r.text);
    assert!(!r.kinds.contains_key("netrc-password"), "{:?}", r.kinds);
    let netrc = "machine api.heroku.com\n  login ops@acme.io\n  password adc8b3c8-6fc6\n";
    assert!(!redact(netrc, Some(".netrc")).text.contains("adc8b3c8"));
}

#[test]
fn blanks_filters_routes_and_record_ids_are_not_secrets() {
    for (path, text) in [
        (
            "nrconfig.env",
            "export NRIA_LICENSE_KEY=REPLACE_LICENSE_KEY_HERE",
        ),
        ("tests/.env", "HAM=火腿"),
        (
            "Rakefile",
            "args = lambda do |connection, exclude_user_password: false|",
        ),
        (
            "config/routes.rb",
            "put \"/disk/:encoded_token\" => \"active_storage/disk#update\"",
        ),
        (
            "doc.md",
            "see viewdocument?DocumentKey=12d8d106-1137-4d7c-8bb4-3ea1faec83fa here",
        ),
        (
            "test.rb",
            "assert_equal({ \"password\" => \"[FILTERED]\" }, result)",
        ),
        ("security.md", "secret_key_base: 492f..."),
        (
            "README.md",
            "kubectl --server=https://127.0.0.1:6443 --token=foo/system:masters create",
        ),
        (
            "logging.rst",
            "Werkzeug logs basic request/response information.",
        ),
    ] {
        let r = redact(text, Some(path));
        assert_eq!(r.count, 0, "{path}: {text} -> {}", r.text);
    }
    // A `.env` secret with spaces, or under a secret name, is still hidden.
    let env = "DB_PASSWORD=\"correct horse battery\"\nNOTE_VALUE=\"t0ps3cret phrase 9\"\n";
    assert_eq!(redact(env, Some(".env")).count, 2);
}
