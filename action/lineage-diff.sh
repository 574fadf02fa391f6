#!/usr/bin/env bash
# The steps of the dbt-lineage GitHub Action (action.yml at the repository root), one function
# each, so that they run (and are tested) outside GitHub Actions too:
#
#   lineage-diff.sh base       dbt artifacts of the base commit, in a git worktree
#   lineage-diff.sh download   or: the base manifest downloaded (production's)
#   lineage-diff.sh head       dbt artifacts of the checked-out commit
#   lineage-diff.sh diff       dbt-lineage diff: the comment (Markdown), HTML and JSON
#   lineage-diff.sh comment    create or update the one sticky comment on the pull request
#   lineage-diff.sh relay      the comment of a fork's run, from its artifact (workflow_run)
#   lineage-diff.sh gate       exit 1 when the verdict matches LINEAGE_FAIL_ON
#
# Exit codes of `gate`: 0 pass; 1 the verdict is blocked by LINEAGE_FAIL_ON, or the pull
# request does not compile; any other code: dbt-lineage itself failed (broken, not blocked).
# A base that does not compile is not the pull request's fault: `base` records it, `diff`
# says so in the comment, and `gate` passes.
#
# Only `comment` and `relay` read GH_TOKEN; the steps that run dbt (project code) must never
# be given it (docs/decisions/0013-workflow-security.md).
#
# Settings (environment):
#   LINEAGE_OUT            where everything is written (default: $RUNNER_TEMP/dbt-lineage-diff,
#                          or .dbt-lineage-diff); base/ and head/ are the two target dirs
#   LINEAGE_PROJECT_DIR    the dbt project, relative to the repository root (default: .)
#   LINEAGE_BASE_SHA       base commit (`base`; the action passes the pull request's base)
#   LINEAGE_BASE_MANIFEST_URL  URL of the base manifest.json (`download`)
#   LINEAGE_DOWNLOAD_HEADER    extra curl header for that URL, e.g. "Authorization: Bearer ..."
#   LINEAGE_DBT_COMMAND    dbt command that writes the manifest (default: compile)
#   LINEAGE_CATALOG        true (default): catalog.json too, from `dbt docs generate` (which
#                          compiles: one compile per side); false: the manifest only
#   LINEAGE_FAIL_ON        block (default), review or unknown; empty: never fail
#   LINEAGE_REPORT_URL     link printed under the comment (the workflow run with the HTML)
#   LINEAGE_COMMENT_AUTHOR the login whose comment is the sticky one (github-actions[bot])
#   LINEAGE_HEAD_SHA       `relay`: the head commit the fork's run diffed
#   GITHUB_REPOSITORY, LINEAGE_PR_NUMBER   where the comment goes (`comment`)
#   DBT, DBT_LINEAGE, GH   the executables (default: dbt, dbt-lineage, gh)
set -euo pipefail

MARKER="<!-- dbt-lineage-diff -->"
# GitHub refuses comments over 65,536 characters; dbt-lineage keeps its Markdown within 60,000.
COMMENT_LIMIT=65000
CACHE_FILE=dbt_lineage_cache.json.gz

# the repository (`relay` runs without a checkout: then the current directory)
ROOT="$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
if [ -n "${LINEAGE_OUT:-}" ]; then
    OUT="$LINEAGE_OUT"
elif [ -n "${RUNNER_TEMP:-}" ]; then
    OUT="$RUNNER_TEMP/dbt-lineage-diff"
else
    OUT="$ROOT/.dbt-lineage-diff"
fi
PROJECT_DIR="${LINEAGE_PROJECT_DIR:-.}"
DBT="${DBT:-dbt}"
DBT_LINEAGE="${DBT_LINEAGE:-dbt-lineage}"
GH="${GH:-gh}"

fail() {
    echo "Error: $*" >&2
    exit 1
}

# --base for dbt-lineage: the base target dir, or its manifest.json when that is all there is.
base_arg() {
    if [ "$(ls "$OUT/base")" = manifest.json ]; then echo "$OUT/base/manifest.json"; else echo "$OUT/base"; fi
}

# Runs dbt in the project at $1, writing its artifacts to $2 (an absolute path). The lineage
# cache in $2 is kept (its entries are keyed by content, so they stay right).
dbt_artifacts() {
    local project="$1" target="$2" command="${LINEAGE_DBT_COMMAND:-compile}"
    [ -f "$project/dbt_project.yml" ] || fail "no dbt_project.yml in $project: set LINEAGE_PROJECT_DIR"
    mkdir -p "$target"
    find "$target" -mindepth 1 -maxdepth 1 ! -name "$CACHE_FILE" -exec rm -rf {} +
    # `set -e` does not hold where this runs (`recorded`): each command's status is checked
    (
        cd "$project" || exit 1
        # dbt_packages restored from the cache (keyed by the package files) needs no `dbt deps`
        if { [ -f packages.yml ] || [ -f dependencies.yml ]; } && [ ! -d dbt_packages ]; then
            "$DBT" deps || exit $?
        fi
        if [ "${LINEAGE_CATALOG:-true}" = true ] && [ "$command" = compile ]; then
            # compiles, then reads the catalog: one compile
            "$DBT" docs generate --target-path "$target" || exit $?
        else
            # shellcheck disable=SC2086  # the command may be two words (e.g. "build --empty")
            "$DBT" $command --target-path "$target" || exit $?
            if [ "${LINEAGE_CATALOG:-true}" = true ]; then
                "$DBT" docs generate --no-compile --target-path "$target" || exit $?
            fi
        fi
    ) || return $?
    [ -f "$target/manifest.json" ] || { echo "Error: dbt wrote no manifest.json in $target" >&2; return 1; }
}

# Runs $1 with its output shown and kept in $2; on failure records the output's tail in $3.
recorded() {
    local log="$2" failed="$3" status
    rm -f "$failed"
    set +e
    "$1" 2>&1 | tee "$log"
    status="${PIPESTATUS[0]}"
    set -e
    if [ "$status" != 0 ]; then
        tail -n 30 "$log" >"$failed"
    fi
    return "$status"
}

# The base commit's artifacts: a detached worktree of LINEAGE_BASE_SHA, built like the head.
# When the base does not compile, that is recorded (base.failed) and the step passes: the
# pull request that fixes the base must not fail for it.
step_base() {
    local sha="${LINEAGE_BASE_SHA:?set LINEAGE_BASE_SHA to the base commit}"
    if ! git -C "$ROOT" cat-file -e "$sha^{commit}" 2>/dev/null; then
        git -C "$ROOT" fetch --no-tags --depth=1 origin "$sha" \
            || fail "base commit $sha not found: check out with fetch-depth: 0"
    fi
    mkdir -p "$OUT"
    local src="$OUT/base-src"
    git -C "$ROOT" worktree remove --force "$src" 2>/dev/null || rm -rf "$src"
    git -C "$ROOT" worktree add --detach "$src" "$sha" >/dev/null
    # the base shares the head's dbt packages when it declares the same ones
    local project="$src/$PROJECT_DIR" here="$ROOT/$PROJECT_DIR" same=true
    for file in packages.yml dependencies.yml package-lock.yml; do
        if [ -f "$here/$file" ] || [ -f "$project/$file" ]; then
            cmp -s "$here/$file" "$project/$file" || same=false
        fi
    done
    if [ "$same" = true ] && [ -d "$here/dbt_packages" ]; then
        cp -a "$here/dbt_packages" "$project/dbt_packages"
    fi
    local status=0
    base_build() { dbt_artifacts "$src/$PROJECT_DIR" "$OUT/base"; }
    recorded base_build "$OUT/base.log" "$OUT/base.failed" || status=$?
    if [ "$same" = true ] && [ -d "$project/dbt_packages" ] && [ ! -d "$here/dbt_packages" ]; then
        cp -a "$project/dbt_packages" "$here/dbt_packages"  # the head needs no `dbt deps`
    fi
    git -C "$ROOT" worktree remove --force "$src"
    if [ "$status" != 0 ]; then
        echo "::warning::the base commit $sha does not compile (dbt exit $status): no diff;" \
            "this pull request is not failed for it"
    fi
}

# Or the base manifest alone, downloaded (e.g. the one production's last run published).
step_download() {
    local url="${LINEAGE_BASE_MANIFEST_URL:?set LINEAGE_BASE_MANIFEST_URL to the base manifest.json}"
    local header=()
    [ -z "${LINEAGE_DOWNLOAD_HEADER:-}" ] || header=(--header "$LINEAGE_DOWNLOAD_HEADER")
    rm -rf "$OUT/base" "$OUT/base.failed"
    mkdir -p "$OUT/base"
    curl --fail --silent --show-error --location "${header[@]}" \
        --output "$OUT/base/manifest.json" "$url" \
        || fail "could not download the base manifest from $url"
}

# The checked-out commit's artifacts. A pull request that does not compile fails here.
step_head() {
    mkdir -p "$OUT"
    head_build() { dbt_artifacts "$ROOT/$PROJECT_DIR" "$OUT/head"; }
    recorded head_build "$OUT/head.log" "$OUT/head.failed"
}

# Standard input as a Markdown code block, its fence longer than any run of backticks in it
# and its terminal colour codes removed (dbt's log is coloured).
fenced() {
    local text fence='```'
    text="$(sed 's/\x1b\[[0-9;]*m//g')"
    while [[ "$text" == *"$fence"* ]]; do fence="$fence\`"; done
    printf '%s\n%s\n%s' "$fence" "$text" "$fence"
}

# The comment when a side could not be compiled: $1 which side, $2 its name, $3 what it means.
failed_comment() {
    printf '%s\n## dbt-lineage diff: %s does not compile\n\n%s\n\n%s\n' \
        "$MARKER" "$2" "$3" "$(fenced <"$OUT/$1.failed")"
}

# The report in three formats: comment.md (with the marker), diff.html, diff.json. A failing
# diff still leaves a comment that says why.
step_diff() {
    mkdir -p "$OUT"
    rm -f "$OUT/verdict" "$OUT/diff.failed"
    [ -z "${GITHUB_OUTPUT:-}" ] || echo "comment-file=$OUT/comment.md" >>"$GITHUB_OUTPUT"
    [ -z "${LINEAGE_PR_NUMBER:-}" ] || echo "$LINEAGE_PR_NUMBER" >"$OUT/pr-number"
    if [ -f "$OUT/head.failed" ]; then
        failed_comment head "this pull request" "dbt could not compile this pull request, so there is no diff." \
            >"$OUT/comment.md"
        return 1
    fi
    if [ -f "$OUT/base.failed" ]; then
        failed_comment base "the base" "The base branch (${LINEAGE_BASE_SHA:-the base commit}) fails to\
 compile, so there is nothing to compare with. This pull request is not failed for it: if it\
 fixes the base, the next pull request gets its diff." >"$OUT/comment.md"
        return 0
    fi
    local base status=0
    base="$(base_arg)"
    for format in markdown html json; do
        "$DBT_LINEAGE" diff --base "$base" --head "$OUT/head" --format "$format" \
            --output "$OUT/diff.${format/markdown/md}" 2>"$OUT/diff.err" || { status=$?; break; }
    done
    {
        echo "$MARKER"
        if [ "$status" = 0 ]; then
            cat "$OUT/diff.md"
            [ -z "${LINEAGE_REPORT_URL:-}" ] \
                || printf '\n\n---\nFull report: the `dbt-lineage-diff` artifact of [this run](%s).\n' \
                    "$LINEAGE_REPORT_URL"
        else
            printf '## dbt-lineage diff failed\n\n%s\n' "$(tail -n 20 "$OUT/diff.err" | fenced)"
        fi
    } >"$OUT/comment.md"
    cat "$OUT/diff.err" >&2
    # without --fail-on, any exit but 0 is a failure of the tool, whatever its code
    [ "$status" = 0 ] || echo "$status" >"$OUT/diff.failed"
    if [ "$status" = 0 ]; then
        jq -r .verdict "$OUT/diff.json" >"$OUT/verdict"
        [ -z "${GITHUB_OUTPUT:-}" ] || {
            echo "verdict=$(cat "$OUT/verdict")"
            echo "report-file=$OUT/diff.html"
        } >>"$GITHUB_OUTPUT"
    fi
    return "$status"
}

# Finds this workflow's own comment (the marker first, written by LINEAGE_COMMENT_AUTHOR, not
# a comment that quotes the marker) and updates it, or posts a new one. A read-only token (a
# pull request from a fork) gets 403: a warning, and the step passes so the gate still runs.
step_comment() {
    local repo="${GITHUB_REPOSITORY:?set GITHUB_REPOSITORY (owner/name)}"
    local pr="${LINEAGE_PR_NUMBER:?set LINEAGE_PR_NUMBER to the pull request number}"
    local author="${LINEAGE_COMMENT_AUTHOR:-github-actions[bot]}"
    local body="$OUT/comment.md"
    [ -f "$body" ] || fail "no $body: run the diff step first"
    if [ "$(wc -m <"$body")" -gt "$COMMENT_LIMIT" ]; then
        head -c "$COMMENT_LIMIT" "$body" >"$body.cut"
        printf '\n\n(cut to fit a GitHub comment: see the HTML report)\n' >>"$body.cut"
        mv "$body.cut" "$body"
    fi
    local id
    id="$("$GH" api --paginate "repos/$repo/issues/$pr/comments" \
        | jq -r --arg marker "$MARKER" --arg author "$author" \
            '.[] | select(.user.login == $author and (.body | startswith($marker))) | .id' \
        | head -n 1)"
    local method=POST path="repos/$repo/issues/$pr/comments" done="Commented on pull request #$pr"
    if [ -n "$id" ]; then
        method=PATCH path="repos/$repo/issues/comments/$id" done="Updated comment $id on pull request #$pr"
    fi
    local status=0
    jq -n --rawfile body "$body" '{body: $body}' \
        | "$GH" api --method "$method" "$path" --input - >/dev/null 2>"$OUT/gh.err" || status=$?
    cat "$OUT/gh.err" >&2
    if [ "$status" = 0 ]; then
        echo "$done"
    elif grep -q "HTTP 403" "$OUT/gh.err"; then
        echo "::warning::cannot comment on pull request #$pr (HTTP 403: the token is read-only," \
            "as on a pull request from a fork); the gate still decides. To comment on forks," \
            "add the workflow_run follow-up (docs/github-action.md)."
    else
        fail "could not comment on pull request #$pr (gh exit $status)"
    fi
}

# workflow_run follow-up: posts the comment a fork's run left in its artifact ($LINEAGE_OUT).
# The artifact is the fork's data: its pull request number must be a number, and that pull
# request's head must be the commit the run diffed.
step_relay() {
    local repo="${GITHUB_REPOSITORY:?set GITHUB_REPOSITORY (owner/name)}"
    local sha="${LINEAGE_HEAD_SHA:?set LINEAGE_HEAD_SHA to github.event.workflow_run.head_sha}"
    local pr
    pr="$(cat "$OUT/pr-number" 2>/dev/null || true)"
    [[ "$pr" =~ ^[0-9]+$ ]] || fail "the artifact's pr-number is not a pull request number"
    local head
    head="$("$GH" api "repos/$repo/pulls/$pr" --jq .head.sha)"
    [ "$head" = "$sha" ] \
        || fail "pull request #$pr is at $head, not at the run's commit $sha: not commenting"
    LINEAGE_PR_NUMBER="$pr" step_comment
}

# The CI gate: dbt-lineage's own --fail-on decides; the text report goes to the log.
# dbt-lineage exits 0 (pass) or 1 (the verdict is blocked by --fail-on); any other code is a
# failure of the tool, reported as such.
step_gate() {
    if [ -f "$OUT/head.failed" ]; then
        echo "::error::this pull request does not compile (see the head step)"
        return 1
    fi
    if [ -f "$OUT/base.failed" ]; then
        echo "::warning::the base does not compile: nothing to compare, the gate passes"
        return 0
    fi
    if [ -f "$OUT/diff.failed" ]; then
        echo "::error::dbt-lineage failed (exit $(cat "$OUT/diff.failed")) in the diff step:" \
            "the tool broke, this is no verdict"
        return 2
    fi
    local base status=0 fail_on=()
    base="$(base_arg)"
    [ -z "${LINEAGE_FAIL_ON-block}" ] || fail_on=(--fail-on "${LINEAGE_FAIL_ON:-block}")
    "$DBT_LINEAGE" diff --base "$base" --head "$OUT/head" --format text "${fail_on[@]}" \
        || status=$?
    case "$status" in
        0) ;;
        1) echo "::error::blocked: the verdict is ${LINEAGE_FAIL_ON:-block} or worse (--fail-on)" ;;
        *) echo "::error::dbt-lineage failed (exit $status): the tool broke, this is no verdict" ;;
    esac
    return "$status"
}

case "${1:-}" in
    base | download | head | diff | comment | relay | gate) "step_$1" ;;
    *) fail "usage: $0 base|download|head|diff|comment|relay|gate" ;;
esac
