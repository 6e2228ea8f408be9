# frozen_string_literal: true

require "digest"
require "json"

module SmsEmulatorKit
  # The one kit contract (test-vectors/kit-contract.json), read where this kit finds it: the copy the gem carries, else
  # the checkout's. The resolution order's error, the start arguments and the timeline rule come from it.
  module Contract
    def self.path
      [File.expand_path("../../resources/kit-contract.json", __dir__),
       File.expand_path("../../../../test-vectors/kit-contract.json", __dir__)].find { |path| File.file?(path) } ||
        raise(EmulatorError, "#{Settings::ERROR_PREFIX}the kit contract is missing: reinstall the sms_emulator_kit gem")
    end

    def self.get
      @get ||= JSON.parse(File.read(path))
    end

    # The file name of a failing test's timeline, by the contract's rule: `sms-emulator-timeline-<test>.html`, the id made
    # safe; a longer one keeps the test's own name whole, behind a hash of the whole id and as much of its front as fits.
    def self.timeline_file(test_id)
      timeline = get["timeline"]
      prefix = "sms-emulator-timeline-"
      suffix = ".html"
      id = test_id.b
      whole = safe_name(id)
      room = timeline["maxLength"] - prefix.length - suffix.length
      return prefix + whole + suffix if whole.length <= room

      hash = Digest::SHA256.hexdigest(id)[0, timeline["hashLength"]]
      start = test_name_start(id)
      name = safe_name(id[start..])[0, room - hash.length - 1]
      front = safe_name(id[0, start])[0, [0, room - hash.length - 2 - name.length].max]
      "#{prefix}#{front.empty? ? '' : "#{front}-"}#{hash}-#{name}#{suffix}"
    end

    # Where the test's own name starts: after the last `::` or `/` outside square brackets (a parameter may hold either).
    def self.test_name_start(id)
      depth = 0
      start = 0
      id.each_char.with_index do |char, index|
        if char == "["
          depth += 1
        elsif char == "]"
          depth = [0, depth - 1].max
        elsif depth.zero? && char == "/"
          start = index + 1
        elsif depth.zero? && id[index, 2] == "::"
          start = index + 2
        end
      end
      start
    end

    def self.safe_name(text) = text.gsub(/[^A-Za-z0-9_.\-]+/n, "_")
  end
end
