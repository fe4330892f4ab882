package io.schedext.framework;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * A plugin's raw configuration ({@code pluginConfig[].args}) and its decoding into the plugin's
 * typed args record. Args records apply their own defaults for missing fields. Immutable.
 */
public final class PluginArgs {

  private static final ObjectMapper MAPPER =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
  private static final PluginArgs NONE = new PluginArgs("", JsonNodeFactory.instance.objectNode());

  private final String plugin;
  private final JsonNode raw;

  private PluginArgs(String plugin, JsonNode raw) {
    this.plugin = plugin;
    this.raw = raw;
  }

  /** Arguments for {@code plugin}; null raw means "not configured". */
  public static PluginArgs of(String plugin, JsonNode raw) {
    return new PluginArgs(
        plugin, raw == null || raw.isNull() ? JsonNodeFactory.instance.objectNode() : raw);
  }

  /** Empty arguments. */
  public static PluginArgs none() {
    return NONE;
  }

  /** The raw JSON (an empty object when not configured). */
  public JsonNode raw() {
    return raw;
  }

  /**
   * Decodes into {@code type}; throws {@link FrameworkException} naming the plugin and the
   * offending field when the JSON does not fit.
   */
  public <T> T as(Class<T> type) {
    try {
      return MAPPER.treeToValue(raw, type);
    } catch (Exception e) {
      throw new FrameworkException("invalid args for plugin " + plugin + ": " + e.getMessage(), e);
    }
  }
}
