//! Token formats: secrets known by their shape alone (`ghp_…`, `AKIA…`, a PEM block).
//!
//! The formats are the ones gitleaks, detect-secrets and TruffleHog know (their documented
//! prefixes, alphabets and lengths), and the providers' own published token formats, written here
//! as our own patterns. A rule replaces its `secret` group, or the whole match when it has none.
//! Each rule names the literals (needles) one of which every match holds: a text holding none of
//! them never runs, nor even compiles, the rule.

use crate::redact::rules::{placed, Check, Rule};

/// A token with a distinctive prefix (`ghp_`, `rk_live_`, `AKIA`): it starts at a word boundary or
/// right after `_`, and ends before anything that is not a letter or digit, so one glued into a
/// name (`stripe_rk_live_…_charges.yml`, `x_ghp_…_y.json`) is found too. The boundary characters
/// stay outside the `secret` group, so they are kept.
macro_rules! prefixed {
    ($body:literal) => {
        concat!(r"(?:(?-u:\b)|_)(?P<secret>", $body, r")(?:[^A-Za-z0-9]|$)")
    };
}

/// A format distinctive enough to be trusted anywhere, minified and vendored files included.
const fn format(
    kind: &'static str,
    needles: &'static [&'static str],
    pattern: &'static str,
) -> Rule {
    Rule {
        kind,
        pattern,
        needles,
        distinctive: true,
        check: Check::Shape,
    }
}

/// A PEM block, also checked for key material (see [`Check::KeyBlock`]).
const fn key_block(
    kind: &'static str,
    needles: &'static [&'static str],
    pattern: &'static str,
) -> Rule {
    Rule {
        check: Check::KeyBlock,
        ..format(kind, needles, pattern)
    }
}

/// A format whose prefix is short or common (`sk-`, `cio`): its body must also look random.
const fn random(
    kind: &'static str,
    needles: &'static [&'static str],
    pattern: &'static str,
) -> Rule {
    Rule {
        check: Check::Random,
        ..format(kind, needles, pattern)
    }
}

/// A placed shape that must also look random: a header's credential (`Bearer <token>`) is
/// generated, the word after `Bearer` in a sentence is not.
const fn placed_random(
    kind: &'static str,
    needles: &'static [&'static str],
    pattern: &'static str,
) -> Rule {
    Rule {
        check: Check::Random,
        ..placed(kind, needles, pattern)
    }
}

/// Most specific first: a secret is counted once, under its best name.
pub const TOKENS: &[Rule] = &[
    // Key files: a PEM block, also inside a diff or a JSON string; unterminated runs to the end.
    key_block(
        "private-key",
        &["-----BEGIN "],
        r"(?s)-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\z)",
    ),
    format(
        "age-secret-key",
        &["AGE-SECRET-KEY-1"],
        prefixed!(r"AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}"),
    ),
    // Credentials inside URLs: scheme://user:password@host.
    placed(
        "url-credential",
        &["://"],
        r"(?-u:\b)[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@'\x22]*:(?P<secret>[^\s@/'\x22]{3,})@",
    ),
    format(
        "jwt",
        &["eyJ"],
        r"(?-u:\b)eyJ[A-Za-z0-9_-]{7,}\.eyJ[A-Za-z0-9_-]{7,}\.[A-Za-z0-9_-]{10,}",
    ),
    // AI providers.
    format(
        "anthropic-key",
        &["sk-ant-"],
        prefixed!(
            r"sk-ant-(?:api|admin|oat)[0-9][0-9]-[A-Za-z0-9_-]{20,}|sk-ant-[A-Za-z0-9_-]{20,}"
        ),
    ),
    // OpenAI (`sk-proj-`, `sk-svcacct-`, `sk-admin-`, legacy `sk-`), and the providers that took
    // its shape (OpenRouter `sk-or-v1-`, DeepSeek `sk-` + hex). `sk-` also starts words in
    // stylesheets and code (`sk-button-primary-hover-state`): the body must look random.
    random(
        "openai-key",
        &["sk-"],
        r"(?-u:\b)sk-(?:proj-|svcacct-|admin-|or-v1-)?[A-Za-z0-9_-]{20,}",
    ),
    format(
        "huggingface-token",
        &["hf_", "api_org_"],
        prefixed!(r"(?:hf|api_org)_[A-Za-z]{34}"),
    ),
    format(
        "perplexity-key",
        &["pplx-"],
        prefixed!(r"pplx-[A-Za-z0-9]{48}"),
    ),
    format("groq-key", &["gsk_"], prefixed!(r"gsk_[A-Za-z0-9]{52}")),
    format("xai-key", &["xai-"], prefixed!(r"xai-[A-Za-z0-9]{80}")),
    format(
        "replicate-token",
        &["r8_"],
        prefixed!(r"r8_[A-Za-z0-9]{37}"),
    ),
    format(
        "langsmith-key",
        &["lsv2_"],
        prefixed!(r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"),
    ),
    format(
        "pinecone-key",
        &["pcsk_"],
        prefixed!(r"pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,}"),
    ),
    random("fireworks-key", &["fw_"], prefixed!(r"fw_[A-Za-z0-9]{24}")),
    format("elevenlabs-key", &["sk_"], prefixed!(r"sk_[a-f0-9]{48}")),
    // Code hosts and package registries.
    format(
        "github-token",
        &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        prefixed!(r"gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}"),
    ),
    format(
        "gitlab-token",
        &[
            "glpat-",
            "gldt-",
            "glft-",
            "glrt-",
            "glsoat-",
            "glffct-",
            "glimt-",
            "glagent-",
            "gloas-",
            "glptt-",
            "glcbt-",
            "glwt-",
            "GR1348941",
        ],
        prefixed!(
            r"gl(?:pat|dt|ft|rt|soat|ffct|imt|agent|oas|ptt|cbt|wt)-[0-9A-Za-z_.-]{20,}|GR1348941[0-9A-Za-z_-]{20}"
        ),
    ),
    format(
        "bitbucket-token",
        &["ATBB"],
        prefixed!(r"ATBB[A-Za-z0-9]{32}"),
    ),
    format(
        "sourcegraph-token",
        &["sgp_"],
        prefixed!(r"sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}"),
    ),
    format("npm-token", &["npm_"], prefixed!(r"npm_[A-Za-z0-9]{36}")),
    format(
        "pypi-token",
        &["pypi-AgEIcHlwaS5vcmc"],
        prefixed!(r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}"),
    ),
    format(
        "rubygems-token",
        &["rubygems_"],
        prefixed!(r"rubygems_[a-f0-9]{48}"),
    ),
    random("crates-token", &["cio"], prefixed!(r"cio[A-Za-z0-9]{32}")),
    format("nuget-key", &["oy2"], prefixed!(r"oy2[a-z0-9]{43}")),
    format(
        "dockerhub-token",
        &["dckr_pat_", "dckr_oat_"],
        prefixed!(r"dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}"),
    ),
    format(
        "artifactory-key",
        &["AKCp", "cmVmd"],
        prefixed!(r"AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59}"),
    ),
    format(
        "clojars-token",
        &["CLOJARS_"],
        prefixed!(r"CLOJARS_[a-z0-9]{60}"),
    ),
    format(
        "sonarqube-token",
        &["squ_", "sqp_", "sqa_"],
        prefixed!(r"sq[upa]_[a-f0-9]{40}"),
    ),
    format(
        "circleci-token",
        &["CCIPAT_"],
        prefixed!(r"CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}"),
    ),
    format(
        "buildkite-token",
        &["bkua_"],
        prefixed!(r"bkua_[a-f0-9]{40}"),
    ),
    // Clouds.
    format(
        "aws-access-key",
        &["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
        prefixed!(r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}"),
    ),
    placed(
        "aws-secret-key",
        &["secret"],
        r#"(?i)(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["']?[ \t]*(?:=|:|:=|=>)[ \t]*["']?(?P<secret>[A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)"#,
    ),
    format(
        "azure-storage-key",
        &["accountkey="],
        r"(?i)(?-u:\b)AccountKey=(?P<secret>[A-Za-z0-9+/]{40,}={0,2})",
    ),
    placed(
        "azure-sas-token",
        &["sig="],
        r"[?&]sig=(?P<secret>[A-Za-z0-9%+/]{30,}={0,2})",
    ),
    format(
        "azure-client-secret",
        &["Q~"],
        r"(?:^|[\s'\x22`=:(,>])(?P<secret>[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34})(?:[^A-Za-z0-9_~.-]|$)",
    ),
    format(
        "azure-sas-key",
        &["sharedaccesskey="],
        r"(?i)(?-u:\b)SharedAccessKey=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})",
    ),
    format(
        "google-api-key",
        &["AIza"],
        prefixed!(r"AIza[A-Za-z0-9_-]{35}"),
    ),
    format(
        "google-oauth-secret",
        &["GOCSPX-"],
        prefixed!(r"GOCSPX-[A-Za-z0-9_-]{28}"),
    ),
    format(
        "google-oauth-token",
        &["ya29.", "1//0"],
        r"(?-u:\b)(?:ya29\.[0-9A-Za-z_-]{30,}|1//0[0-9A-Za-z_-]{40,})",
    ),
    format(
        "digitalocean-token",
        &["dop_v1_", "doo_v1_", "dor_v1_"],
        prefixed!(r"do[opr]_v1_[a-f0-9]{64}"),
    ),
    format(
        "alibaba-access-key",
        &["LTAI"],
        prefixed!(r"LTAI[A-Za-z0-9]{12,20}"),
    ),
    format(
        "databricks-token",
        &["dapi"],
        prefixed!(r"dapi[a-f0-9]{32}(?:-[0-9])?"),
    ),
    format(
        "heroku-key",
        &["HRKU-AA"],
        prefixed!(r"HRKU-AA[0-9A-Za-z_-]{58}"),
    ),
    format(
        "vault-token",
        &["hvs.", "hvb.", "hvr."],
        prefixed!(r"hv[sbr]\.[A-Za-z0-9_-]{24,}"),
    ),
    format(
        "terraform-token",
        &["atlasv1"],
        r"(?-u:\b)[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}",
    ),
    format(
        "doppler-token",
        &[
            "dp.pt.",
            "dp.st.",
            "dp.ct.",
            "dp.sa.",
            "dp.scim.",
            "dp.audit.",
        ],
        r"(?-u:\b)dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}(?-u:\b)",
    ),
    format("pulumi-token", &["pul-"], prefixed!(r"pul-[a-f0-9]{40}")),
    format(
        "planetscale-token",
        &["pscale_"],
        prefixed!(r"pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}"),
    ),
    format(
        "dynatrace-token",
        &["dt0c01."],
        r"(?-u:\b)dt0c01\.[A-Z0-9]{24}\.[A-Za-z0-9]{64}(?-u:\b)",
    ),
    format(
        "grafana-token",
        &["glsa_", "glc_", "eyJrIjoi"],
        prefixed!(
            r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}|eyJrIjoi[A-Za-z0-9+/]{30,}={0,2}"
        ),
    ),
    format(
        "new-relic-key",
        &["NRAK-", "NRII-", "NRJS-"],
        r"(?-u:\b)NR(?:AK|II|JS)-[A-Za-z0-9]{19,27}(?-u:\b)",
    ),
    format(
        "sentry-token",
        &["sntrys_", "sntryu_"],
        prefixed!(r"sntry[us]_[A-Za-z0-9+/=_]{40,}"),
    ),
    // Fly.io: `FlyV1 fm2_…` macaroons (the `FlyV1 ` scheme word kept) and `fo1_` tokens.
    format(
        "flyio-token",
        &["fm1a_", "fm1r_", "fm2_", "fo1_"],
        r"(?:(?-u:\b)|_)(?P<secret>fm(?:1[ar]|2)_[A-Za-z0-9+/=,_-]{50,}|fo1_[A-Za-z0-9_-]{43})",
    ),
    format(
        "tailscale-key",
        &["tskey-"],
        r"(?-u:\b)tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{10,}",
    ),
    format(
        "cloudflare-origin-ca-key",
        &["v1.0-"],
        r"(?-u:\b)v1\.0-[a-f0-9]{24}-[a-f0-9]{146}",
    ),
    format(
        "netlify-token",
        &["nfp_"],
        prefixed!(r"nfp_[A-Za-z0-9]{36}"),
    ),
    format(
        "supabase-key",
        &["sbp_", "sb_secret_"],
        prefixed!(r"sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,}"),
    ),
    format("render-key", &["rnd_"], prefixed!(r"rnd_[A-Za-z0-9]{32}")),
    format("neon-key", &["napi_"], prefixed!(r"napi_[a-z0-9]{64}")),
    format(
        "deno-token",
        &["ddp_", "ddw_"],
        prefixed!(r"dd[pw]_[A-Za-z0-9]{36}"),
    ),
    format(
        "openshift-token",
        &["sha256~"],
        r"(?-u:\b)(?P<secret>sha256~[A-Za-z0-9_-]{43})(?:[^A-Za-z0-9_-]|$)",
    ),
    format(
        "yandex-key",
        &["AQVN", "t1."],
        r"(?-u:\b)(?:AQVN[A-Za-z0-9_-]{35,38}|t1\.[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]{86}={0,2})",
    ),
    // Work tools and platforms.
    format(
        "linear-key",
        &["lin_api_"],
        prefixed!(r"lin_api_[A-Za-z0-9]{40}"),
    ),
    format(
        "postman-key",
        &["PMAK-"],
        prefixed!(r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    ),
    format(
        "1password-key",
        &["A3-", "ops_eyJ"],
        r"(?-u:\b)(?:A3-[A-Z0-9]{6}-[A-Z0-9-]{11,12}-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}|ops_eyJ[A-Za-z0-9+/=_-]{100,})",
    ),
    // Atlassian API tokens: `ATATT3`, base64url, then `=` and an 8-hex checksum (about 190 in all).
    format(
        "atlassian-token",
        &["ATATT3", "ATCTT3"],
        prefixed!(r"AT[AC]TT3[A-Za-z0-9_=-]{100,}=[0-9A-Fa-f]{8}|AT[AC]TT3[A-Za-z0-9_=-]{150,}"),
    ),
    // Notion: `ntn_` tokens, and the older internal-integration `secret_` + 43 characters.
    format(
        "notion-token",
        &["ntn_"],
        prefixed!(r"ntn_[0-9]{11}[A-Za-z0-9]{35}"),
    ),
    random(
        "notion-token",
        &["secret_"],
        prefixed!(r"secret_[A-Za-z0-9]{43}"),
    ),
    // LaunchDarkly: SDK, mobile and API access keys are a UUID behind `sdk-`, `mob-` or `api-`.
    format(
        "launchdarkly-key",
        &["sdk-", "mob-", "api-"],
        r"(?-u:\b)(?:sdk|mob|api)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?-u:\b)",
    ),
    format(
        "figma-token",
        &["figd_"],
        prefixed!(r"figd_[A-Za-z0-9_-]{40}"),
    ),
    format(
        "airtable-token",
        &["pat"],
        r"(?-u:\b)pat[A-Za-z0-9]{14}\.[a-f0-9]{64}(?-u:\b)",
    ),
    format(
        "mapbox-token",
        &["sk.eyJ"],
        r"(?-u:\b)sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}",
    ),
    format(
        "dropbox-token",
        &["sl."],
        r"(?-u:\b)sl\.(?:u\.)?[A-Za-z0-9_-]{130,}",
    ),
    format(
        "contentful-token",
        &["CFPAT-"],
        prefixed!(r"CFPAT-[A-Za-z0-9_-]{43}"),
    ),
    format(
        "hubspot-token",
        &["pat-na1-", "pat-eu1-"],
        r"(?-u:\b)pat-(?:na|eu)1-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?-u:\b)",
    ),
    format(
        "harness-token",
        &["pat."],
        r"(?-u:\b)pat\.[A-Za-z0-9_-]{22}\.[0-9a-f]{24}\.[A-Za-z0-9]{20}(?-u:\b)",
    ),
    format(
        "prefect-token",
        &["pnu_"],
        prefixed!(r"pnu_[A-Za-z0-9]{36}"),
    ),
    format("readme-token", &["rdme_"], prefixed!(r"rdme_[a-z0-9]{70}")),
    format(
        "typeform-token",
        &["tfp_"],
        prefixed!(r"tfp_[A-Za-z0-9_.=-]{59}"),
    ),
    format(
        "infracost-token",
        &["ico-"],
        prefixed!(r"ico-[A-Za-z0-9]{32}"),
    ),
    format(
        "defined-networking-key",
        &["dnkey-"],
        r"(?-u:\b)dnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}",
    ),
    format(
        "settlemint-token",
        &["sm_pat_", "sm_aat_", "sm_sat_"],
        prefixed!(r"sm_(?:pat|aat|sat)_[A-Za-z0-9]{16}"),
    ),
    format("adobe-secret", &["p8e-"], prefixed!(r"p8e-[A-Za-z0-9]{32}")),
    // Payments and commerce.
    format(
        "stripe-key",
        &[
            "sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_", "whsec_",
        ],
        prefixed!(r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{32,}"),
    ),
    format(
        "square-token",
        &["sq0atp-", "sq0csp-", "EAAA"],
        prefixed!(r"sq0(?:atp|csp)-[0-9A-Za-z_-]{22,43}|EAAA[A-Za-z0-9_-]{60}"),
    ),
    format(
        "shopify-token",
        &["shpat_", "shpca_", "shppa_", "shpss_"],
        prefixed!(r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    ),
    format(
        "plaid-token",
        &[
            "access-sandbox-",
            "access-development-",
            "access-production-",
        ],
        r"(?-u:\b)access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?-u:\b)",
    ),
    format(
        "braintree-token",
        &["access_token$"],
        r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}",
    ),
    format(
        "flutterwave-key",
        &["FLWSECK"],
        r"(?-u:\b)FLWSECK(?:_TEST)?-[a-h0-9]{32}-X(?-u:\b)",
    ),
    format(
        "shippo-token",
        &["shippo_live_", "shippo_test_"],
        prefixed!(r"shippo_(?:live|test)_[a-f0-9]{40}"),
    ),
    format(
        "duffel-token",
        &["duffel_live_", "duffel_test_"],
        prefixed!(r"duffel_(?:live|test)_[A-Za-z0-9_=-]{43}"),
    ),
    format(
        "easypost-key",
        &["EZAK", "EZTK"],
        prefixed!(r"EZ[AT]K[a-z0-9]{54}"),
    ),
    // Messaging and mail.
    format(
        "twilio-key",
        &["SK", "AC"],
        r"(?-u:\b)(?:SK|AC)[0-9a-f]{32}(?-u:\b)",
    ),
    format(
        "sendgrid-key",
        &["SG."],
        r"(?-u:\b)SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}",
    ),
    format(
        "sendinblue-key",
        &["xkeysib-"],
        prefixed!(r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    ),
    format(
        "mailchimp-key",
        &["-us"],
        r"(?-u:\b)[0-9a-f]{32}-us[0-9]{1,2}(?-u:\b)",
    ),
    format(
        "mailgun-key",
        &["key-"],
        r"(?-u:\b)key-[0-9a-f]{32}(?-u:\b)",
    ),
    random(
        "resend-key",
        &["re_"],
        prefixed!(r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}"),
    ),
    // Slack tokens carry their team and user numbers after the prefix (`xoxb-1234…-…`), which
    // a documented blank (`xoxb-your-bot-token`) does not.
    format(
        "slack-token",
        &[
            "xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xoxe.", "xapp-",
        ],
        prefixed!(
            r"xox[abposre]-[0-9][0-9A-Za-z-]{9,}|xoxe\.xox[bp]-[0-9][0-9A-Za-z-]{9,}|xapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+"
        ),
    ),
    format(
        "slack-webhook",
        &["hooks.slack.com"],
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_+-]{16,}",
    ),
    format(
        "teams-webhook",
        &["webhook.office.com"],
        r"https://[a-z0-9-]+\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/_-]{40,}",
    ),
    format(
        "discord-webhook",
        &["/api/webhooks/"],
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]{40,}",
    ),
    // Also inside the Bot API's URLs, glued to `bot`: `api.telegram.org/bot123:AA…/sendMessage`.
    format(
        "telegram-bot-token",
        &[":AA"],
        r"(?:(?-u:\b)|bot)(?P<secret>[0-9]{8,10}:AA[0-9A-Za-z_-]{33})(?:[^0-9A-Za-z_-]|$)",
    ),
    format(
        "discord-bot-token",
        &[],
        r"(?-u:\b)(?P<secret>[MN][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})(?:[^A-Za-z0-9_-]|$)",
    ),
    // Headers and tool configurations.
    placed_random(
        "bearer-token",
        &["bearer"],
        r"(?-u:\b)[Bb]earer[ \t]+(?P<secret>[A-Za-z0-9._~+/=-]{16,})",
    ),
    // Okta's own scheme: `Authorization: SSWS <token>`.
    placed_random(
        "okta-token",
        &["SSWS"],
        r"(?-u:\b)SSWS[ \t]+(?P<secret>[A-Za-z0-9._~+/=-]{16,})",
    ),
    // base64 of user:password has a digit, `+` or `/` inside, or padding at its end; a word
    // ("basic authentication") or `Basic realm=…` has none.
    placed(
        "basic-auth",
        &["basic"],
        r"(?-u:\b)[Bb]asic[ \t]+(?P<secret>[A-Za-z0-9+/]{4,}[0-9+/][A-Za-z0-9+/]{3,}={0,2}|[A-Za-z0-9+/]{8,}={1,2})(?:[\s'\x22`;,]|$)",
    ),
    // Only as a whole key at a line's start or after a registry's `:` (`//host/:_auth=`), never a
    // name ending in `_auth` in code (`basic_auth = HTTPBasicAuth(…)`); `_auth` and `_password`
    // hold base64.
    placed(
        "npm-auth",
        &["_authToken"],
        r"(?m)(?:^[+\- ]?[ \t]*|:)_authToken[ \t]*=[ \t]*(?P<secret>[A-Za-z0-9._~+/=-]{6,})",
    ),
    placed(
        "npm-auth",
        &["_auth", "_password"],
        r"(?m)(?:^[+\- ]?[ \t]*|:)_(?:auth|password)[ \t]*=[ \t]*['\x22]?(?P<secret>[A-Za-z0-9+/]{6,}={0,2})(?:[\s'\x22]|$)",
    ),
    placed(
        "docker-auth",
        &["\"auth\"", "\"identitytoken\"", "\"registrytoken\""],
        r#""(?:auth|identitytoken|registrytoken)"[ \t]*:[ \t]*"(?P<secret>[A-Za-z0-9+/_.-]{12,}={0,2})""#,
    ),
    placed(
        "kube-client-key",
        &["client-key", "private-key-data"],
        r"(?-u:\b)(?:client-key-data|client-key|private-key-data)[ \t]*:[ \t]*['\x22]?(?P<secret>[A-Za-z0-9+/]{20,}={0,2})",
    ),
    placed(
        "nuget-password",
        &["password"],
        r#"(?i)<add\s+key="(?:ClearText)?Password"\s+value="(?P<secret>[^"]{4,})""#,
    ),
    placed(
        "netrc-password",
        &["machine"],
        r"(?-u:\b)machine[ \t\r\n]+\S+[ \t\r\n]+login[ \t\r\n]+\S+[ \t\r\n]+password[ \t]+(?P<secret>[^\s'\x22\\]+)",
    ),
    placed(
        "gitlab-session",
        &["_gitlab_session="],
        r"(?-u:\b)_gitlab_session=(?P<secret>[0-9a-z]{32})(?-u:\b)",
    ),
    // Cloudflare's global API key travels in `X-Auth-Key`, a 37-hex value.
    placed(
        "cloudflare-global-key",
        &["x-auth-key"],
        r"(?i)(?-u:\b)X-Auth-Key[ \t]*:[ \t]*(?P<secret>[0-9a-f]{37})(?-u:\b)",
    ),
];
