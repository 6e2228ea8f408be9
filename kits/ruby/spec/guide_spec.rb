# frozen_string_literal: true

require "open3"
require "tmpdir"
require_relative "spec_helper"

RSpec.describe "docs/ruby.md" do
  files = %w[Gemfile spec/delivery_notice_spec.rb lib/notifier.rb lib/status_receiver.rb]
  # The guide's ruby blocks, but those with a `<!-- not run: reason -->` line above them.
  blocks = File.read(File.expand_path("../../../docs/ruby.md", __dir__))
    .scan(/^([^\n]*)\n```ruby\n(.*?)\n```$/m)
    .reject { |above, _| above.start_with?("<!-- not run: ") }
    .map(&:last)

  it "shows the sample project's files as they are" do
    sample = File.expand_path("../sample", __dir__)
    expect(blocks).to eq(files.map { |file| File.read(File.join(sample, file)).rstrip })
  end

  it "runs as pasted into a project using this kit: each file parses without warnings and the spec passes" do
    Dir.mktmpdir("sms-emulator-ruby-guide-") do |project|
      files.zip(blocks).each do |file, code|
        path = File.join(project, file)
        FileUtils.mkdir_p(File.dirname(path))
        File.write(path, "#{code}\n")
        output, status = Open3.capture2e("ruby", "-wc", path)
        expect(status).to be_success, output
        expect(output).to eq("Syntax OK\n")
      end
      # The kit from this folder's lib, as Bundler would put the gem on the load path; from this folder, so a relative
      # SMS_EMULATOR_COMMAND still names the emulator.
      rspec = ["ruby", "-I", File.expand_path("../lib", __dir__), "-e", 'load Gem.bin_path("rspec-core", "rspec")']
      output, status = Open3.capture2e(*rspec, File.join(project, "spec"))
      expect(status).to be_success, output
      expect(output).to match(/\d+ examples?, 0 failures/)
    end
  end
end

RSpec.describe "docs/cost-checks.md, its Ruby section" do
  section = File.read(File.expand_path("../../../docs/cost-checks.md", __dir__)).split("\n## Ruby\n", 2).last.split("\n## ", 2).first
  spec, test = section.scan(/^```ruby\n(.*?)\n```$/m).map(&:first)
  # The kit from this folder's lib, as Bundler would put the gem on the load path; from this folder, so a relative
  # SMS_EMULATOR_COMMAND still names the emulator.
  lib = File.expand_path("../lib", __dir__)

  it "runs as pasted: the RSpec example passes under its budgets" do
    Dir.mktmpdir("sms-emulator-ruby-cost-") do |project|
      File.write(File.join(project, "parcel_notice_spec.rb"), "#{spec}\n")
      output, status = Open3.capture2e("ruby", "-I", lib, "-e", 'load Gem.bin_path("rspec-core", "rspec")', File.join(project, "parcel_notice_spec.rb"))
      expect(status).to be_success, output
      expect(output).to include("1 example, 0 failures")
    end
  end

  it "runs as pasted: the Minitest test passes under its budgets" do
    Dir.mktmpdir("sms-emulator-ruby-cost-") do |project|
      File.write(File.join(project, "parcel_notice_test.rb"), "#{test}\n")
      output, status = Open3.capture2e("ruby", "-w", "-I", lib, File.join(project, "parcel_notice_test.rb"))
      expect(status).to be_success, output
      expect(output).to include("1 runs, 4 assertions, 0 failures, 0 errors, 0 skips")
    end
  end
end
