//! Tests of the forms the third blind corpus taught: secrets behind string escapes, in call
//! arguments, split over two lines, in PuTTY keys, YAML block scalars, XML elements, LDAP
//! settings and prose; the look-alikes that must stay; and minified or vendored code.
//! Every value here is fake and made up for the test.

use super::*;

/// `(path, text, secret)`: the secret is gone, the text is redacted once and not again.
fn caught(cases: &[(Option<&str>, &str, &str)]) {
    for (path, text, secret) in cases {
        let r = redact(text, *path);
        assert!(!r.text.contains(secret), "{path:?}: {text}\n-> {}", r.text);
        assert!(r.count > 0, "{text}");
        assert_eq!(redact(&r.text, *path).count, 0, "again: {}", r.text);
    }
}

/// `(path, text)`: nothing is redacted.
fn kept(cases: &[(Option<&str>, &str)]) {
    for (path, text) in cases {
        let r = redact(text, *path);
        assert_eq!(r.count, 0, "{path:?}: {text}\n-> {}", r.text);
    }
}

#[test]
fn secrets_behind_string_escapes_are_caught_and_the_escapes_kept() {
    let key = "sk-ant-api03-Xk9mQ2vL7pR4tW8zB3nF6hJ1cD5gY0";
    for (text, kind, shown) in [
        (
            format!(r#"{{"msg":"Found:\n{key}\nin env"}}"#),
            "anthropic-key",
            r#"{"msg":"Found:\n[REDACTED:anthropic-key]\nin env"}"#.to_string(),
        ),
        (
            r#"{"t":"token:\tghp_0123456789abcdefghijABCDEFGHIJ012345"}"#.into(),
            "github-token",
            r#"{"t":"token:\t[REDACTED:github-token]"}"#.into(),
        ),
        (
            r#"{"u":"https:\/\/sync:Dw7xWTJy3HTr@reg.example.net\/v2\/"}"#.into(),
            "url-credential",
            r#"{"u":"https:\/\/sync:[REDACTED:url-credential]@reg.example.net\/v2\/"}"#.into(),
        ),
        // JSON inside a JSON string: the inner document's names are read.
        (
            r#"{"body":"{\"password\":\"hunter2x!\"}"}"#.into(),
            "password",
            r#"{"body":"{\"password\":\"[REDACTED:password]\"}"}"#.into(),
        ),
        // A character written as `\u0041`...
        (
            r#"{"k":"\u0041KIAQ3EGRZ7KXV4NPL2M"}"#.into(),
            "aws-access-key",
            r#"{"k":"[REDACTED:aws-access-key]"}"#.into(),
        ),
    ] {
        let r = redact(&text, Some("logs/x.json"));
        assert_eq!(r.text, shown, "{text}");
        assert_eq!(r.kinds.get(kind), Some(&1), "{text}: {:?}", r.kinds);
        // The same through an answer (no file), and in a diff line of a source file.
        assert!(redact(&text, None).kinds.contains_key(kind), "{text}");
        assert!(
            redact(&format!("+let s = r#\"{text}\"#;"), Some("a.rs"))
                .kinds
                .contains_key(kind),
            "{text}"
        );
    }
    // A PEM key in a JSON string: one marker a line of the key, the `\n`s kept.
    let pem = r#"{"private_key":"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n"}"#;
    let r = redact(pem, Some("sa.json"));
    assert!(
        !r.text.contains("MIIE") && !r.text.contains("BKcw"),
        "{}",
        r.text
    );
    assert_eq!(r.kinds.get("private-key"), Some(&1), "{:?}", r.kinds);
    assert_eq!(r.text.lines().count(), 1, "{}", r.text);
}

#[test]
fn credentials_passed_as_call_arguments_are_caught() {
    caught(&[
        // Beside an access key's id: Twilio's SID, Alibaba's LTAI…, AWS's AKIA….
        (
            Some("sms/notify.py"),
            "client = Client(\"AC0123456789abcdef0123456789abcdef\", \"73e97291e2aa9a4d8718139326fafe9c\")",
            "73e97291e2aa9a4d8718139326fafe9c",
        ),
        (
            Some("web/sms.js"),
            "const c = require('twilio')('AC0123456789abcdef0123456789abcdef', 'b9c0047c964aeccb1900f49fb5191a24');",
            "b9c0047c964aeccb1900f49fb5191a24",
        ),
        (
            Some("oss/sync.py"),
            "auth = oss2.Auth(\"LTAI5tiWpIUgFkyqBr8TnZnx\", \"ScaeaQ9Z5WSZvcYc0sET7qcHmy0y1M\")",
            "ScaeaQ9Z5WSZvcYc0sET7qcHmy0y1M",
        ),
        // To an SDK's client or a call known to take a key.
        (
            Some("search/indexer.py"),
            "client = SearchClient.create(\"HH76JZMBS9\", \"9b3f4f98106b1df1c9e78ffd0729f819\")",
            "9b3f4f98106b1df1c9e78ffd0729f819",
        ),
        (
            Some("site/search.ts"),
            "const client = algoliasearch('KIVKCGSHMO', '7d54c9906489b6fcf354744b8fb483c8');",
            "7d54c9906489b6fcf354744b8fb483c8",
        ),
        (
            Some("rag/rerank.py"),
            "co = cohere.ClientV2(\"VNVhkAEK5fXJLk6bBj1liEd7VXNHFooRwALAXUZc\")",
            "VNVhkAEK5fXJLk6bBj1liEd7VXNHFooRwALAXUZc",
        ),
    ]);
    kept(&[
        (Some("web/checkout.js"), "const stripe = Stripe('pk_test_TYooMQauvdEDq54NiTphI7jx');"),
        (Some("t.py"), "assert digest(\"abc\") == \"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\""),
        (Some("a.java"), "URI uri = URI.create(\"https://api.example.com/v1/users?page=2\");"),
        (Some("a.py"), "client = Client(\"localhost\", 8080)"),
    ]);
}

#[test]
fn the_second_half_of_a_split_key_is_hidden_with_the_first() {
    caught(&[
        (
            Some("llm.py"),
            "KEY = (\n    \"sk-ant-api03-95aLDIqh_rcRQpdImy9Nionc\"\n    \"8FoV5rNHLhryq20kxWP_RgA3ik\"\n)",
            "8FoV5rNHLhryq20kxWP_RgA3ik",
        ),
        (
            Some("release.js"),
            "const token = 'ghp_ZYWGp4g0xBZbU5' +\n  'smat18ebiLUUWhcz0RVVY3';",
            "smat18ebiLUUWhcz0RVVY3",
        ),
        (
            Some("ci/gitlab.go"),
            "+var gitlabToken = \"glpat-LODOWjz\" +\n+\t\"QtBlstmvOyuzw\"",
            "QtBlstmvOyuzw",
        ),
        (
            Some("deploy/push.sh"),
            "docker login r.example.net -u d \\\n  --password \"fp7eR4xv9M5NN7\\\n6uY#hELQsAoxaM\"",
            "6uY#hELQsAoxaM",
        ),
        (
            Some("app.properties"),
            "jwt.signing-key=ssXbAawutayzesSjIzAl7YDQj8bnA4Zj\\\n    VVCLBuVjNob8N+5yQepL6J46R",
            "VVCLBuVjNob8N+5yQepL6J46R",
        ),
        (
            Some("values.yaml"),
            "s3:\n  secretAccessKey: >-\n    1kbeN/gXS+oruAwACQ9M\n    bttg28YZdszeazJNMWGl\n",
            "bttg28YZdszeazJNMWGl",
        ),
    ]);
    // An ordinary next line after a redacted one is not a continuation.
    let r = redact(
        "password = 's3cr3t!x'\nnext_line_value_1234 = 1",
        Some("a.py"),
    );
    assert!(r.text.contains("next_line_value_1234"), "{}", r.text);
}

#[test]
fn putty_keys_block_scalars_and_xml_elements_are_caught() {
    let ppk = "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: c\nPublic-Lines: 1\nAAAAC3NzaC1lZDI1NTE5AAAAIPcPPK3b1\nPrivate-Lines: 2\nAAAAIFdyLYjoZG5ADatyfAGDzv++FItw\nM2FB4MvcmDBKChZL\nPrivate-MAC: 06e20c09bb5e3b44\n";
    let r = redact(ppk, Some("ops/bastion.ppk"));
    assert!(
        !r.text.contains("AAAAIFdy") && !r.text.contains("M2FB4M"),
        "{}",
        r.text
    );
    assert!(
        r.text.contains("AAAAC3NzaC1lZDI1NTE5"),
        "the public lines stay: {}",
        r.text
    );
    assert_eq!(r.kinds.get("private-key"), Some(&1));
    assert_eq!(r.text.lines().count(), ppk.lines().count());
    caught(&[
        (
            Some("settings.xml"),
            "<server><id>r</id><password>~Bli7A.Sn9~.iqCGjo</password></server>",
            "~Bli7A.Sn9~.iqCGjo",
        ),
        (
            Some("k8s/tls.yaml"),
            "data:\n  api_token: |\n    q8Vd2LkR9sXw4TzB7mNc\n    Xw4TzB7mNcq8Vd2LkR9s\nother: 1\n",
            "Xw4TzB7mNcq8Vd2LkR9s",
        ),
    ]);
    kept(&[
        (
            Some("m/settings.xml"),
            "<password>${env.MAVEN_PASSWORD}</password>",
        ),
        (
            Some("a.csproj"),
            "<ProjectGuid>{92DDB164-D169-4576-92EA-CCBDE5E16F3D}</ProjectGuid>",
        ),
        (Some("ci.yml"), "run: |\n  echo hi\n  make test\n"),
    ]);
}

#[test]
fn ldap_and_other_named_places_are_caught() {
    caught(&[
        (Some("postfix/ldap.cf"), "bind_dn = cn=p,dc=x\nbind_pw = Fo+1cg0Jg66MqeZC", "Fo+1cg0Jg66MqeZC"),
        (Some("etc/nslcd.conf"), "binddn cn=n,dc=x\nbindpw 4dJP74qMVte@1+", "4dJP74qMVte@1+"),
        (Some("etc/sssd.conf"), "ldap_default_authtok = J7~YhJ!HWnMuKnqDn", "J7~YhJ!HWnMuKnqDn"),
        (Some("dex.yaml"), "    bindPW: \"vegx=2nmfMHA7JH9of\"", "vegx=2nmfMHA7JH9of"),
        (
            Some("kc.json"),
            "{\"config\":{\"bindCredential\":[\"sc5tZIN38qN2SXW\"]}}",
            "sc5tZIN38qN2SXW",
        ),
        (
            Some("app.json"),
            "{\"env\":{\"HEROKU_API_KEY\":{\"value\":\"57e812c5-9fb9-441b-a695-6ee537dad306\"}}}",
            "57e812c5-9fb9-441b-a695-6ee537dad306",
        ),
        (Some("psql.sh"), "PGPASSWORD='v4MRBZVJgAGfgm' psql -h db", "v4MRBZVJgAGfgm"),
        (Some("wp-config.php"), "define( 'DB_PASSWORD', '!1!_mRJKz-K-x-' );", "!1!_mRJKz-K-x-"),
        (Some("seed.sql"), "CREATE USER r WITH PASSWORD '89QCOqjaKIJA7^+r';", "89QCOqjaKIJA7^+r"),
        (
            Some("backup.ps1"),
            "$s = ConvertTo-SecureString \"nNq#KR#5=*IJhDtUXk.J\" -AsPlainText -Force",
            "nNq#KR#5=*IJhDtUXk.J",
        ),
        (Some("dump.sh"), "mysqldump -u b -p'b~-ad^=wrFD3AZ!' crm", "b~-ad^=wrFD3AZ!"),
        (
            Some("purge.sh"),
            "curl -H \"X-Auth-Key: ad197faa42763fd3da4b55d54f2378e1a3d1e\" https://x",
            "ad197faa42763fd3da4b55d54f2378e1a3d1e",
        ),
        (
            Some("notify.sh"),
            "curl \"https://api.telegram.org/bot6702669874:AAq3nfUIQ0x1GWh98JaiBSHDQJZ3L_LwPn-/sendMessage\"",
            "6702669874:AAq3nfUIQ0x1GWh98JaiBSHDQJZ3L_LwPn-",
        ),
    ]);
}

#[test]
fn passwords_stated_in_prose_are_caught() {
    caught(&[
        (
            None,
            "The password for the staging db is `xZsin.dur6AHpv` until Friday.",
            "xZsin.dur6AHpv",
        ),
        (
            None,
            "Shared secret is now PwUxMTDTcU25 - old one is revoked.",
            "PwUxMTDTcU25",
        ),
        (
            Some("restore.md"),
            "Log in as `root` with password **.-d5-FfNc4OTE1G** and go.",
            ".-d5-FfNc4OTE1G",
        ),
        (
            Some("README.md"),
            "Default admin login for the demo box: `admin` / `.rkKK7aKKDq~s` (VPN only).",
            ".rkKK7aKKDq~s",
        ),
        (
            None,
            "guest wifi: SSID acme-guest, passphrase ~4!YH~zkZ33@BqHNgU",
            "~4!YH~zkZ33@BqHNgU",
        ),
        (
            Some("onboarding.md"),
            "The password is `p_j^0cAS^kbz!m*J`; ask first.",
            "p_j^0cAS^kbz!m*J",
        ),
    ]);
    // A value in backticks goes whole, `*` and all: nothing of it is left.
    let r = redact("The password is `p_j^0cAS^kbz!m*J`; ask first.", None);
    assert_eq!(r.text, "The password is `[REDACTED:password]`; ask first.");
}

#[test]
fn look_alikes_of_the_third_corpus_stay() {
    kept(&[
        (Some("api/schema.graphql"), "input LoginInput {\n  password: String!\n  accessToken: String!\n}"),
        (Some("docs/sigv4.md"), "Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=host"),
        (Some("docs/aws-cli.md"), "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        (Some("web/push.ts"), "const applicationServerKey = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';"),
        (Some("bots/.env.sample"), "SLACK_BOT_TOKEN=xoxb-your-bot-token\nSLACK_SIGNING_SECRET=your-signing-secret"),
        (Some(".env.test"), "PASSWORD=password\nSECRET=test\nJWT_SECRET=test-secret\nAPI_TOKEN=dummy"),
        (Some("django.po"), "msgid \"Your password can’t be too similar to your other personal information.\""),
        (Some("curl/test1561"), "Set-Cookie: __Host-SID=22345; Path=/"),
        (Some("curl/test281"), "WWW-Authenticate: Basic Realm=authenticate"),
        (Some("package.json"), "\"jsonwebtoken\": \"~9.0.2\""),
    ]);
    // `.env` values that are numbers, sentences, templates or commented are settings.
    kept(&[(
        Some("tests/syntax/.env"),
        "A=-42\nB=1e10\nC=0x1A\nD=\"test test test\" # a comment\nE=test$VAR1test test {VAR2}test\n",
    )]);
}

#[test]
fn minified_and_vendored_code_gets_distinctive_formats_only() {
    let bundle = format!(
        "!function(){{var password=\"Xq9!mz2\",key=\"q8Vd2LkR9sXw4TzB7mNc\";{};var t=\"ghp_0123456789abcdefghijABCDEFGHIJ012345\"}}();",
        "a=b;".repeat(400)
    );
    for path in [
        ".yarn/releases/yarn-4.1.0.cjs",
        "vendor/chart.min.js",
        "static/app.js",
    ] {
        let r = redact(&bundle, Some(path));
        assert_eq!(
            r.kinds.keys().copied().collect::<Vec<_>>(),
            ["github-token"],
            "{path}: {:?}",
            r.kinds
        );
    }
    // The same code in a person's source file: its literal password too.
    let r = redact("var password=\"Xq9!mz2\";", Some("src/app.js"));
    assert_eq!(r.kinds.get("password"), Some(&1), "{:?}", r.kinds);
}

/// Lines of curl's and prettier's history that once read as secrets: form fields and lists
/// beside the word `password`, the anonymous-FTP address convention, a sentence after `Bearer`,
/// flags in backticks after `user`, a help text's `\n` escapes, a vendored bundle's code.
#[test]
fn public_code_that_reads_like_secrets_stays() {
    kept(&[
        (Some("docs/MANUAL.md"), "  <input name=pass type=password size=10>"),
        (Some("docs/MANUAL.md"), "    curl -d \"user=foobar&pass=12345&id=blablabla&ding=submit\""),
        (Some("docs/CURLOPT_NETRC.md"), "    default login anonymous password user@domain"),
        (None, "auth: pick Bearer authentication whenever a token is available\n\nBearer authentictation..."),
        (None, "it's the user's responsibility to enable `-nghttp3`/`-ngtcp2` only"),
        (Some("src/help.c.cvs"), "\"  the password is entered.\\n\""),
        (Some("ltmain.sh"), "      password prog,link"),
        (Some("tests/graphql/format.test.js.snap"), "  password: String!"),
        // A PEM parser's constant, and a documented key whose body is a blank.
        (Some("src/pem.rs"), "const HEADER: &str = \"-----BEGIN PRIVATE KEY-----\";\nfn parse(s: &str) -> Key {\n    todo!()\n}"),
        (Some("docs/examples/usercertinmem.c"), "  \"-----BEGIN RSA PRIVATE KEY-----\\n\"\n  \"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\\n\"\n  \"-----END RSA PRIVATE KEY-----\\n\";"),
        (Some("ltmain.sh"), "\tif test \"$linkmode,$pass\" = \"lib,link\" ||"),
        (Some("tests/ftpserver.pl"), "                 'PASS' => 'loggedin|twosock',"),
        (Some("tests/test_02.py"), "client = LocalClient(name='cli_h2_upgrade_extreme', env=env)"),
        (None, "  curl -H 'Authorization: Bearer ya29.AHES6Z...OMfsHYI'"),
        (Some(".env"), "TEST_ESCAPE=\"escaped characters \\n \\t \\\" \\$ or a backslash \\\\...\""),
    ]);
}
