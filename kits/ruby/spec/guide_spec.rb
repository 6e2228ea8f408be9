# frozen_string_literal: true

require_relative "spec_helper"

RSpec.describe "docs/ruby.md" do
  it "shows the sample project's files as they are, so its example runs as pasted" do
    blocks = File.read(File.expand_path("../../../docs/ruby.md", __dir__)).scan(/```ruby\n(.*?)\n```/m).flatten
    sample = File.expand_path("../sample", __dir__)
    files = %w[Gemfile spec/delivery_notice_spec.rb lib/notifier.rb lib/status_receiver.rb]
    expect(blocks).to eq(files.map { |file| File.read(File.join(sample, file)).rstrip })
  end
end
