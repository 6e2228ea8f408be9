# frozen_string_literal: true

require "json"

module SmsEmulatorKit
  # What every answer Struct of Answers (generated) adds to its fields: the JSON it was read from, so a String key
  # (`event["messageId"]`), `dig`, `fetch`, `key?` and `to_json` read the answer exactly as the emulator wrote it, as
  # answers were read before they had types, and a document taken back (a snapshot) loses nothing.
  module Answer
    def self.included(base)
      base.extend(ClassMethods)
    end

    # A nested answer read into its Struct, or nil.
    def self.one(json, type) = json.nil? ? nil : type.from_json(json)

    # A list of nested answers, each read into its Struct, or nil.
    def self.many(json, type) = json&.map { |item| type.from_json(item) }

    # How a Struct is made from the JSON it keeps.
    module ClassMethods
      def build(json, **fields)
        new(**fields).tap { |answer| answer.instance_variable_set(:@as_json, json) }
      end
    end

    # The answer as parsed (a Hash with the emulator's own names).
    attr_reader :as_json

    # A String key reads the JSON as parsed; a Symbol or an index reads the Struct's field.
    def [](key) = key.is_a?(String) ? as_json[key] : super

    def dig(key, *rest) = key.is_a?(String) ? as_json.dig(key, *rest) : super

    def fetch(key, *default, &block) = as_json.fetch(key.to_s, *default, &block)

    def key?(key) = as_json.key?(key.to_s)

    def to_json(*args) = as_json.to_json(*args)
  end
end
