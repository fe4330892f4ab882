package io.schedext.extender;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;

/**
 * Writes an {@link Explanation} as JSON field by field, the same bytes the mapper's bean
 * serialization gives (components in order, nulls written, a status's null detail left out), at a
 * fraction of its cost: at 5,000 nodes an explanation holds some 150,000 values, and writing them
 * through the mapper's per-property machinery took as long as explaining. A plugin's detail data,
 * of the plugin's own types, is left to the generator's codec.
 */
final class ExplanationWriter {

  private ExplanationWriter() {}

  static void write(Explanation e, JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("pod", e.pod());
    g.writeStringField("profile", e.profile());
    g.writeStringField("boundNode", e.boundNode());
    g.writeStringField("summary", e.summary());
    g.writeFieldName("filterPlugins");
    strings(e.filterPlugins(), g);
    g.writeFieldName("scorePlugins");
    if (e.scorePlugins() == null) {
      g.writeNull();
    } else {
      g.writeStartArray();
      for (Explanation.ScorePlugin p : e.scorePlugins()) {
        g.writeStartObject();
        g.writeStringField("plugin", p.plugin());
        g.writeNumberField("weight", p.weight());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeFieldName("preFilter");
    statuses(e.preFilter(), g);
    g.writeFieldName("preScore");
    statuses(e.preScore(), g);
    g.writeFieldName("nodes");
    if (e.nodes() == null) {
      g.writeNull();
    } else {
      g.writeStartArray();
      for (Explanation.NodeVerdict v : e.nodes()) {
        verdict(v, g);
      }
      g.writeEndArray();
    }
    g.writeFieldName("feasibleNodes");
    strings(e.feasibleNodes(), g);
    g.writeFieldName("bestNodes");
    strings(e.bestNodes(), g);
    g.writeFieldName("preemption");
    preemption(e.preemption(), g);
    g.writeStringField("error", e.error());
    g.writeEndObject();
  }

  private static void verdict(Explanation.NodeVerdict v, JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("node", v.node());
    g.writeBooleanField("feasible", v.feasible());
    g.writeFieldName("filters");
    statuses(v.filters(), g);
    g.writeFieldName("scores");
    if (v.scores() == null) {
      g.writeNull();
    } else {
      g.writeStartArray();
      for (Explanation.PluginScore s : v.scores()) {
        g.writeStartObject();
        g.writeStringField("plugin", s.plugin());
        g.writeNumberField("raw", s.raw());
        g.writeNumberField("normalized", s.normalized());
        g.writeNumberField("weight", s.weight());
        g.writeNumberField("weighted", s.weighted());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeFieldName("totalScore");
    number(v.totalScore(), g);
    g.writeFieldName("extenderScore");
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
      g.writeStringField("plugin", s.plugin());
      g.writeStringField("code", s.code());
      g.writeFieldName("reasons");
      strings(s.reasons(), g);
      if (s.detail() != null) {
        g.writeFieldName("detail");
        g.writeStartObject();
        g.writeFieldName("lines");
        strings(s.detail().lines(), g);
        g.writeFieldName("data");
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
    g.writeStringField("code", p.code());
    g.writeFieldName("reasons");
    strings(p.reasons(), g);
    g.writeStringField("nominatedNode", p.nominatedNode());
    g.writeFieldName("victims");
    if (p.victims() == null) {
      g.writeNull();
    } else {
      g.writeStartArray();
      for (Explanation.Victim v : p.victims()) {
        g.writeStartObject();
        g.writeStringField("pod", v.pod());
        g.writeStringField("uid", v.uid());
        g.writeNumberField("priority", v.priority());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeEndObject();
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
