/* The schema of example.com/mysdk's UI extension, whose types share the package mcp. */

/** The UI of a tool. */
export interface ToolUI {
  /** The tool the UI is for. */
  tool: Tool;
  /** The resource that renders the UI. */
  resourceUri: string;
  /** Who may call the tool. */
  visibility?: ("model" | "app")[];
}

/** The protocol's Tool, which ui.yaml substitutes by the Tool of the package. */
export interface Tool {
  name: string;
}
