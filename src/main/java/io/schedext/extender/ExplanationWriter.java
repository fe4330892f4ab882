package io.schedext.extender;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes an {@link Explanation} as JSON field by field, the same bytes the mapper's bean
 * serialization gives (components in order, nulls written, a status's null detail left out), at a
 * fraction of its cost: at 5,000 nodes an explanation holds some 150,000 values, and writing them
 * through the mapper's per-property machinery took as long as explaining. A plugin's detail data,
 * of the plugin's own types, is left to the generator's codec.
 */
final class ExplanationWriter {

  // Field names, encoded once.
  private static final SerializedString BEST_NODES = new SerializedString("bestNodes");
  private static final SerializedString BOUND_NODE = new SerializedString("boundNode");
  private static final SerializedString CODE = new SerializedString("code");
  private static final SerializedString DATA = new SerializedString("data");
  private static final SerializedString DETAIL = new SerializedString("detail");
  private static final SerializedString ERROR = new SerializedString("error");
  private static final SerializedString EXTENDER_SCORE = new SerializedString("extenderScore");
  private static final SerializedString FEASIBLE = new SerializedString("feasible");
  private static final SerializedString FEASIBLE_NODES = new SerializedString("feasibleNodes");
  private static final SerializedString FILTER_PLUGINS = new SerializedString("filterPlugins");
  private static final SerializedString FILTERS = new SerializedString("filters");
  private static final SerializedString LINES = new SerializedString("lines");
  private static final SerializedString NODE = new SerializedString("node");
  private static final SerializedString NODES = new SerializedString("nodes");
  private static final SerializedString NOMINATED_NODE = new SerializedString("nominatedNode");
  private static final SerializedString NORMALIZED = new SerializedString("normalized");
  private static final SerializedString PLUGIN = new SerializedString("plugin");
  private static final SerializedString POD = new SerializedString("pod");
  private static final SerializedString PRE_FILTER = new SerializedString("preFilter");
  private static final SerializedString PRE_SCORE = new SerializedString("preScore");
  private static final SerializedString PREEMPTION = new SerializedString("preemption");
  private static final SerializedString PRIORITY = new SerializedString("priority");
  private static final SerializedString PROFILE = new SerializedString("profile");
  private static final SerializedString RAW = new SerializedString("raw");
  private static final SerializedString REASONS = new SerializedString("reasons");
  private static final SerializedString SCORE_PLUGINS = new SerializedString("scorePlugins");
  private static final SerializedString SCORES = new SerializedString("scores");
  private static final SerializedString SUMMARY = new SerializedString("summary");
  private static final SerializedString TOTAL_SCORE = new SerializedString("totalScore");
  private static final SerializedString UID = new SerializedString("uid");
  private static final SerializedString VICTIMS = new SerializedString("victims");
  private static final SerializedString WEIGHT = new SerializedString("weight");
  private static final SerializedString WEIGHTED = new SerializedString("weighted");

  private static final int REPEATED_MAX = 512;
  private static final ConcurrentHashMap<String, SerializedString> REPEATED =
      new ConcurrentHashMap<>();

  private ExplanationWriter() {}

  static void write(Explanation e, JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeFieldName(POD);
    g.writeString(e.pod());
    g.writeFieldName(PROFILE);
    g.writeString(e.profile());
    g.writeFieldName(BOUND_NODE);
    g.writeString(e.boundNode());
    g.writeFieldName(SUMMARY);
    g.writeString(e.summary());
    g.writeFieldName(FILTER_PLUGINS);
    strings(e.filterPlugins(), g);
    g.writeFieldName(SCORE_PLUGINS);
    if (e.scorePlugins() == null) {
      g.writeNull();
    } else {
      g.writeStartArray();
      for (Explanation.ScorePlugin p : e.scorePlugins()) {
        g.writeStartObject();
        g.writeFieldName(PLUGIN);
        repeated(p.plugin(), g);
        g.writeFieldName(WEIGHT);
        g.writeNumber(p.weight());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeFieldName(PRE_FILTER);
    statuses(e.preFilter(), g);
    g.writeFieldName(PRE_SCORE);
    statuses(e.preScore(), g);
    g.writeFieldName(NODES);
    if (e.nodes() == null) {
      g.writeNull();
    } else {
      g.writeStartArray();
      for (Explanation.NodeVerdict v : e.nodes()) {
        verdict(v, g);
      }
      g.writeEndArray();
    }
    g.writeFieldName(FEASIBLE_NODES);
    strings(e.feasibleNodes(), g);
    g.writeFieldName(BEST_NODES);
    strings(e.bestNodes(), g);
    g.writeFieldName(PREEMPTION);
    preemption(e.preemption(), g);
    g.writeFieldName(ERROR);
    g.writeString(e.error());
    g.writeEndObject();
  }

  private static void verdict(Explanation.NodeVerdict v, JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeFieldName(NODE);
    g.writeString(v.node());
    g.writeFieldName(FEASIBLE);
    g.writeBoolean(v.feasible());
    g.writeFieldName(FILTERS);
    statuses(v.filters(), g);
    g.writeFieldName(SCORES);
    if (v.scores() == null) {
      g.writeNull();
    } else {
      g.writeStartArray();
      for (Explanation.PluginScore s : v.scores()) {
        g.writeStartObject();
        g.writeFieldName(PLUGIN);
        repeated(s.plugin(), g);
        g.writeFieldName(RAW);
        g.writeNumber(s.raw());
        g.writeFieldName(NORMALIZED);
        g.writeNumber(s.normalized());
        g.writeFieldName(WEIGHT);
        g.writeNumber(s.weight());
        g.writeFieldName(WEIGHTED);
        g.writeNumber(s.weighted());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeFieldName(TOTAL_SCORE);
    number(v.totalScore(), g);
    g.writeFieldName(EXTENDER_SCORE);
    number(v.extenderScore(), g);
    g.writeEndObject();
  }

  private static void statuses(List<Explanation.PluginStatus> list, JsonGenerator g)
      throws IOException {
    if (list == null) {
      g.writeNull();
      return;
    }
    g.writeStartArray();
    for (int i = 0; i < list.size(); i++) {
      Explanation.PluginStatus s = list.get(i);
      g.writeStartObject();
      g.writeFieldName(PLUGIN);
      repeated(s.plugin(), g);
      g.writeFieldName(CODE);
      repeated(s.code(), g);
      g.writeFieldName(REASONS);
      strings(s.reasons(), g);
      if (s.detail() != null) {
        g.writeFieldName(DETAIL);
        g.writeStartObject();
        g.writeFieldName(LINES);
        strings(s.detail().lines(), g);
        g.writeFieldName(DATA);
        g.writeObject(s.detail().data());
        g.writeEndObject();
      }
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private static void preemption(Explanation.Preemption p, JsonGenerator g) throws IOException {
    if (p == null) {
      g.writeNull();
      return;
    }
    g.writeStartObject();
    g.writeFieldName(CODE);
    g.writeString(p.code());
    g.writeFieldName(REASONS);
    strings(p.reasons(), g);
    g.writeFieldName(NOMINATED_NODE);
    g.writeString(p.nominatedNode());
    g.writeFieldName(VICTIMS);
    if (p.victims() == null) {
      g.writeNull();
    } else {
      g.writeStartArray();
      for (Explanation.Victim v : p.victims()) {
        g.writeStartObject();
        g.writeFieldName(POD);
        g.writeString(v.pod());
        g.writeFieldName(UID);
        g.writeString(v.uid());
        g.writeFieldName(PRIORITY);
        g.writeNumber(v.priority());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeEndObject();
  }

  /**
   * Writes a value of a small set met again and again (plugin names, status codes), encoded once
   * and kept; past {@value #REPEATED_MAX} of them, written as any string.
   */
  private static void repeated(String value, JsonGenerator g) throws IOException {
    if (value == null) {
      g.writeNull();
      return;
    }
    SerializedString known = REPEATED.get(value);
    if (known == null) {
      if (REPEATED.size() >= REPEATED_MAX) {
        g.writeString(value);
        return;
      }
      known = REPEATED.computeIfAbsent(value, SerializedString::new);
    }
    g.writeString(known);
  }

  private static void strings(List<String> list, JsonGenerator g) throws IOException {
    if (list == null) {
      g.writeNull();
      return;
    }
    g.writeStartArray();
    for (int i = 0; i < list.size(); i++) {
      g.writeString(list.get(i));
    }
    g.writeEndArray();
  }

  private static void number(Long n, JsonGenerator g) throws IOException {
    if (n == null) {
      g.writeNull();
    } else {
      g.writeNumber(n);
    }
  }
}
