#!/usr/bin/env bash
# Must hold: a team that depends on FutureBridge runs the migration assistant from its own
# package, with the command Tools/Migrate/README.md gives, without cloning anything by hand.
#
# Makes a bare copy of this repository's HEAD named FutureBridge.git (as a package URL
# would name it) and a user package that depends on it by URL, so that SwiftPM checks it
# out under .build/checkouts/FutureBridge as it would from GitHub. The package has a
# callback API and an async function that calls it; it builds as it is. Then, from the user
# package, exactly as documented:
#   swift package resolve
#   swift run --package-path .build/checkouts/FutureBridge/Tools/Migrate \
#       --scratch-path .build/futurebridge-migrate futurebridge-migrate calls Sources/App --write
# (one command: the calls and the module's forms, built together by the tool's compile gate)
# and checks that the async form was written, that the call site now awaits it, that the
# gate built the package, and that the package builds in Swift 6 mode with warnings as errors.
#
#   bash Scripts/check-migrate-from-user-package.sh [SCRATCH_DIR]
#
# SCRATCH_DIR (default: .build-migrate-user in this repository, which git ignores) keeps
# the tool's build between runs. The last line is `migrate from a user package: ...`.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
scratch=${1:-$repo/.build-migrate-user}
package="$scratch/UserPackage"
revision=$(git -C "$repo" rev-parse HEAD)

rm -rf "$scratch/FutureBridge.git" "$package/Sources" "$package/Package.resolved"
mkdir -p "$scratch" "$package/Sources/App"
git clone --quiet --bare "$repo" "$scratch/FutureBridge.git"

cat >"$package/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "UserPackage",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [.package(url: "file://$scratch/FutureBridge.git", revision: "$revision")],
    targets: [.target(name: "App", dependencies: [.product(name: "FutureBridge", package: "FutureBridge")])]
)
MANIFEST

cat >"$package/Sources/App/Catalog.swift" <<'SWIFT'
import Dispatch

public struct CatalogError: Error {}

/// A callback API, as the app has it today.
public final class Catalog: Sendable {
    public init() {}

    public func title(of id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        DispatchQueue.global().async {
            completion(id > 0 ? .success("Title \(id)") : .failure(CatalogError()))
        }
    }
}
SWIFT

cat >"$package/Sources/App/Screen.swift" <<'SWIFT'
import Dispatch

/// Async code that still calls the callback API, and hops to the main queue for its state.
@MainActor
public final class Screen {
    let catalog = Catalog()
    public var text = ""

    public init() {}

    public func refresh() async {
        catalog.title(of: 1) { result in
            DispatchQueue.main.async {
                switch result {
                case .success(let title):
                    self.text = title
                case .failure:
                    self.text = "-"
                }
            }
        }
    }
}
SWIFT

cd "$package"
log="$scratch/run.log"
start=$SECONDS
run() {
    echo "+ $*" >>"$log"
    if ! "$@" >>"$log" 2>&1; then
        cat "$log"
        echo "migrate from a user package: FAILED ($*; log: $log)"
        exit 1
    fi
}
: >"$log"
run swift package resolve
run swift build -Xswiftc -warnings-as-errors  # the package as it is today compiles
tool=(swift run --package-path .build/checkouts/FutureBridge/Tools/Migrate
    --scratch-path .build/futurebridge-migrate futurebridge-migrate)
run "${tool[@]}" calls Sources/App --write
run swift build -Xswiftc -warnings-as-errors

if ! grep -q 'checked by the compiler: `swift build --build-tests --enable-index-store` in .*; 0 edits withdrawn' "$log"; then
    cat "$log"
    echo "migrate from a user package: FAILED (the compile gate did not check the edits, or withdrew one)"
    exit 1
fi

if [[ ! -f Sources/App/Catalog+Async.swift ]]; then
    cat "$log"
    echo "migrate from a user package: FAILED (no Sources/App/Catalog+Async.swift)"
    exit 1
fi
if ! grep -q 'let title = try await catalog.title(of: 1)' Sources/App/Screen.swift; then
    cat "$log" Sources/App/Screen.swift
    echo "migrate from a user package: FAILED (the call in Screen.refresh() was not converted)"
    exit 1
fi
if [[ -n "$(git -C .build/checkouts/FutureBridge status --porcelain)" ]]; then
    git -C .build/checkouts/FutureBridge status --porcelain
    echo "migrate from a user package: FAILED (the run left files in the checkout)"
    exit 1
fi
echo "migrate from a user package: forms written, a call converted, checked by the gate, built ($((SECONDS - start)) s, $package)"
