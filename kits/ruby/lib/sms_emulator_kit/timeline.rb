# frozen_string_literal: true

require "fileutils"

module SmsEmulatorKit
  # Where a failing test's timeline goes: `tmp/sms-emulator/run-<time>-<pid>/` under the project root (the folder
  # holding the Gemfile), or SMS_EMULATOR_TIMELINE_DIR; one folder per run, so runs never overwrite each other.
  module Timeline
    def self.write(test_id, html)
      @run_folder ||= begin
        base = ENV["SMS_EMULATOR_TIMELINE_DIR"] || File.join(Emulator.project_root(Dir.pwd), "tmp", "sms-emulator")
        File.join(base, "run-#{Time.now.strftime('%Y%m%d-%H%M%S')}-#{Process.pid}").tap { |folder| FileUtils.mkdir_p(folder) }
      end
      File.join(@run_folder, Contract.timeline_file(test_id)).tap { |file| File.write(file, html) }
    end
  end
end
