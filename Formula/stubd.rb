# Homebrew formula for a tap: builds stubd from source with the Swift of Xcode 16 or later, against
# Homebrew's libmicrohttpd (the 1.0 series), GnuTLS, libyaml, hiredis, wslay and libnghttp2, and installs the
# man page and the bash, zsh and fish completions the built binary prints, so they match it.
#
# The release's url and sha256 go here when a version is tagged. CI installs the commit under test
# through a local tap whose copy of this file points them at a `git archive` of that commit
# (.github/workflows/ci.yml, job macos); `ruby -c Formula/stubd.rb` checks the syntax (.ci/run).
class Stubd < Formula
  desc "Stub HTTP server for testing API clients"
  homepage "https://github.com/your-org/stubd"
  url "https://github.com/your-org/stubd/archive/refs/tags/v0.1.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  head "https://github.com/your-org/stubd.git", branch: "main"

  depends_on "pkgconf" => :build
  depends_on xcode: ["16.0", :build]
  depends_on "gnutls"
  depends_on "hiredis"
  depends_on "libmicrohttpd"
  depends_on "libnghttp2"
  depends_on "libyaml"
  depends_on macos: :sonoma
  depends_on "wslay"

  def install
    system "swift", "build", "--disable-sandbox", "--configuration", "release", "--product", "stubd"
    bin.install ".build/release/stubd"
    (man1/"stubd.1").write Utils.safe_popen_read(bin/"stubd", "manpage")
    # `stubd completions bash`, `... zsh`, `... fish`: made from its command and settings tables.
    generate_completions_from_executable(bin/"stubd", "completions", shells: [:bash, :zsh, :fish])
    pkgshare.install "Stubs"
  end

  def caveats
    <<~EOS
      Example stubs (six APIs) are in:
        #{opt_pkgshare}/Stubs
      Serve them with:
        stubd serve --stubs #{opt_pkgshare}/Stubs
    EOS
  end

  test do
    assert_match "stubd #{version}", shell_output("#{bin}/stubd --version")
    assert_match "OK, ", shell_output("#{bin}/stubd check #{pkgshare}/Stubs")
    assert_match "import-openapi", shell_output("#{bin}/stubd manpage")
    assert_path_exists zsh_completion/"_stubd"

    port = free_port
    pid = spawn bin/"stubd", "serve", "--stubs", pkgshare/"Stubs", "--port", port.to_s
    begin
      health = "http://127.0.0.1:#{port}/__stubd/health"
      deadline = Time.now + 30
      # Polled until it answers: the daemon needs a moment to load the stubs and bind.
      until quiet_system("curl", "-fsS", "-o", File::NULL, health)
        raise "stubd did not answer #{health} within 30 s" if Time.now > deadline

        sleep 0.1
      end
      assert_match(/"id"\s*:\s*1\b/, shell_output("curl -fsS http://127.0.0.1:#{port}/api/v1/users/1"))
      assert_equal "404", shell_output("curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:#{port}/api/v1/users/999")
    ensure
      Process.kill("TERM", pid)
      Process.wait(pid)
    end
    assert_equal 0, $CHILD_STATUS.exitstatus
  end
end
