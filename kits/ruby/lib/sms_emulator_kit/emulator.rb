# frozen_string_literal: true

require "fileutils"
require "json"
require "rbconfig"
require "securerandom"
require "shellwords"
require "tmpdir"

module SmsEmulatorKit
  # The one emulator of a test run, found by the kit contract's order: SMS_EMULATOR_URL (a running one), else
  # SMS_EMULATOR_COMMAND (a command that starts one, a relative path resolved against the project root), else the Node
  # runtime gem of the platform (sms_emulator_kit-node, when the project has it), else a `node` on PATH, each with the
  # emulator this gem carries; never an unpinned npx. A started emulator stops when the run ends, and by itself within
  # a second if the run dies (--parent-pid).
  class Emulator
    attr_reader :origin, :control, :ready

    # The run's emulator, found or started on first use; a failed start is kept, so every test reports it at once
    # instead of trying (and announcing) again.
    def self.shared
      raise @failed if @failed

      @shared ||= start.tap { |emulator| at_exit { emulator.stop } }
    rescue EmulatorError => e
      raise @failed = e
    end

    def self.start
      env = Contract.get["resolution"]["env"]
      token = ENV[env["token"]]
      tried = { "url" => "not set", "command" => "not set", "pathNode" => "not found",
                "carried" => "not installed (add the gem sms_emulator_kit-node for #{Gem::Platform.local})" }
      if (url = ENV[env["url"]]) && !url.empty?
        announce("SMS_EMULATOR_URL=#{Http.shown_url(url)}")
        control = Control.new(url.chomp("/"), token)
        begin
          # The answer as parsed, not read into Answers::Status: whatever answers there may not be an emulator.
          health = control.operation("health")
        rescue TransportError, ControlError => e
          raise EmulatorError, "#{Settings::ERROR_PREFIX}SMS_EMULATOR_URL=#{Http.shown_url(url)} does not answer as an sms-emulator: #{e.message}"
        end
        raise EmulatorError, "#{Settings::ERROR_PREFIX}SMS_EMULATOR_URL=#{Http.shown_url(url)} is not an sms-emulator: /_emulator/health answered #{health.inspect}" unless health.is_a?(Hash) && health["status"] == "ok"

        return new(url.chomp("/"), control, { "origin" => url.chomp("/") })
      end
      if (command = ENV[env["command"]]) && !command.empty?
        announce("SMS_EMULATOR_COMMAND=#{command}")
        return launch(resolve_command(command), token)
      end
      bundle = carried_bundle
      entry = bundle && File.join(bundle, Contract.get["start"]["bundleEntry"])
      if bundle && (runtime = carried_runtime)
        announce("the carried runtime (#{runtime}) with the carried emulator")
        return launch("#{runtime.shellescape} #{entry.shellescape}", token)
      end
      if bundle && (node = node_on_path(tried))
        announce("node on PATH (#{node}) with the carried emulator")
        return launch("#{node.shellescape} #{entry.shellescape}", token)
      end
      tried["pathNode"] += "; and this gem carries no emulator (resources/emulator is missing: reinstall it)" unless bundle
      raise EmulatorError, Contract.get["resolution"]["notFound"].gsub(/\{(url|command|carried|pathNode)\}/) { tried[Regexp.last_match(1)] }
    end

    # The order in force, printed once when a run starts, so a log shows which emulator a run used.
    def self.announce(choice)
      warn "#{Settings::ERROR_PREFIX}emulator from #{choice} (order: SMS_EMULATOR_URL, SMS_EMULATOR_COMMAND, a carried runtime, node on PATH)"
    end

    # A relative path in the command is a path from the project root (the folder holding the Gemfile or a .gemspec).
    def self.resolve_command(command, from = Dir.pwd)
      root = project_root(from)
      command.split.each_with_index.map do |word, index|
        relative = !word.start_with?("/", "-") && word.include?("/")
        relative && (index.zero? || File.exist?(File.join(root, word))) ? File.join(root, word) : word
      end.join(" ")
    end

    def self.project_root(from)
      folder = File.expand_path(from)
      loop do
        return folder if File.file?(File.join(folder, "Gemfile")) || !Dir.glob(File.join(folder, "*.gemspec")).empty?
        return File.expand_path(from) if File.dirname(folder) == folder

        folder = File.dirname(folder)
      end
    end

    def self.carried_bundle
      bundle = File.expand_path("../../resources/emulator", __dir__)
      File.file?(File.join(bundle, Contract.get["start"]["bundleEntry"])) ? bundle : nil
    end

    # The node of the runtime gem installed for this platform (its file mode kept by the gem), or nil.
    def self.carried_runtime
      spec = Gem::Specification.find_all_by_name("sms_emulator_kit-node").find { |found| Gem::Platform.match(found.platform) }
      return nil unless spec

      node = File.join(spec.gem_dir, "resources", Gem.win_platform? ? "node.exe" : "node")
      File.executable?(node) ? node : nil
    end

    # A node of at least the contract's minimum version on PATH, or nil with what was found instead.
    def self.node_on_path(tried)
      ENV.fetch("PATH", "").split(File::PATH_SEPARATOR).each do |folder|
        node = File.join(folder, "node")
        next unless File.file?(node) && File.executable?(node)

        version = `#{node.shellescape} --version 2>/dev/null`.strip
        minimum = Contract.get["resolution"]["minimumNodeVersion"]
        return node if Gem::Version.new(version.delete_prefix("v")) >= Gem::Version.new(minimum)

        tried["pathNode"] = "#{node} is #{version}, older than #{minimum}"
        return nil
      end
      nil
    end

    # How long a start may take, in milliseconds: SMS_EMULATOR_START_TIMEOUT read with the one duration grammar (`2m`,
    # `120`, `90s`), else the contract's default; a setting that is not a duration fails the run with the contract's
    # text instead of being read as some other length.
    def self.start_timeout_ms
      text = ENV.fetch(Settings::START_TIMEOUT_ENV, "")
      Settings.duration_ms(Settings::START_TIMEOUT_ENV, text.empty? ? Settings::START_TIMEOUT : text)
    rescue ArgumentError => e
      raise EmulatorError, e.message
    end

    def self.launch(command, token)
      start_timeout_ms
      folder = File.join(Dir.tmpdir, "sms-emulator-ruby-#{SecureRandom.hex(6)}")
      Dir.mkdir(folder, 0o700)
      ready_file = File.join(folder, "ready.json")
      args = Contract.get["start"]["args"].map do |arg|
        arg.gsub("{readyFile}", ready_file).gsub("{parentPid}", Process.pid.to_s).shellescape
      end
      log = File.join(folder, "output.log")
      # exec: the shell becomes the emulator, so the process this kit holds is the one it stops.
      pid = Process.spawn("exec #{command} #{args.join(' ')}", in: File::NULL, %i[out err] => log)
      timeout = start_timeout_ms / 1000.0
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
      until (ready = read_ready(ready_file))
        ended = Process.waitpid(pid, Process::WNOHANG)
        if ended || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
          Process.kill("TERM", pid) unless ended
          output = File.read(log)[-4000..] || File.read(log)
          FileUtils.rm_rf(folder)
          why = ended ? "ended with #{$?}" : "was not ready within #{timeout}s"
          raise EmulatorError, "#{Settings::ERROR_PREFIX}`#{command}` #{why}. Its output:\n#{output}"
        end
        sleep 0.02
      end
      # Nothing is left behind even if the run is killed: the emulator keeps writing to its (now unlinked) log.
      FileUtils.rm_rf(folder)
      new(ready["origin"], Control.new(ready["origin"], token), ready, pid)
    end

    # The ready file's content once it is there whole, else nil.
    def self.read_ready(ready_file)
      ready = JSON.parse(File.read(ready_file))
      ready.is_a?(Hash) && ready["origin"] ? ready : nil
    rescue Errno::ENOENT, JSON::ParserError
      nil
    end

    def initialize(origin, control, ready, pid = nil, folder = nil)
      @origin = origin
      @control = control
      @ready = ready
      @pid = pid
      @folder = folder
    end

    # Stops an emulator this run started (and removes its temporary folder); one found by URL is left running.
    def stop
      if @pid
        begin
          Process.kill("TERM", @pid)
          Process.wait(@pid)
        rescue Errno::ESRCH, Errno::ECHILD
          nil
        end
        @pid = nil
      end
      FileUtils.rm_rf(@folder) if @folder
    end
  end
end
