/*
 * A request in the shape Claude Code sends on each agent turn (`POST /v1/messages?beta=true`): system
 * blocks with cache_control, a first user turn with system-reminder blocks, many custom tools whose
 * schemas carry `$schema` and `additionalProperties`, the last tool marked for caching, metadata and
 * `stream: true`, with its beta, version and client headers. Texts are shortened; the structure is the
 * client's.
 */

const ephemeral = { type: 'ephemeral' } as const;

function tool(
  name: string,
  description: string,
  properties: Record<string, unknown>,
  required: string[],
): Record<string, unknown> {
  return {
    name,
    description,
    input_schema: {
      type: 'object',
      properties,
      required,
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  };
}

const text = (description: string) => ({ type: 'string', description });

const tools = [
  tool(
    'Task',
    'Launch a new agent to handle complex, multi-step tasks autonomously.',
    {
      description: text('A short (3-5 word) description of the task'),
      prompt: text('The task for the agent to perform'),
      subagent_type: text('The type of specialized agent to use for this task'),
    },
    ['description', 'prompt', 'subagent_type'],
  ),
  tool(
    'Bash',
    'Executes a given bash command in a persistent shell session.',
    {
      command: text('The command to execute'),
      timeout: { type: 'number', description: 'Optional timeout in milliseconds (max 600000)' },
      description: text('Clear, concise description of what this command does in 5-10 words'),
      run_in_background: {
        type: 'boolean',
        description: 'Set to true to run this command in the background',
      },
    },
    ['command'],
  ),
  tool(
    'Glob',
    'Fast file pattern matching tool that works with any codebase size.',
    {
      pattern: text('The glob pattern to match files against'),
      path: text('The directory to search in'),
    },
    ['pattern'],
  ),
  tool(
    'Grep',
    'A powerful search tool built on ripgrep.',
    {
      pattern: text('The regular expression pattern to search for in file contents'),
      path: text('File or directory to search in'),
      glob: text('Glob pattern to filter files'),
      output_mode: { type: 'string', enum: ['content', 'files_with_matches', 'count'] },
      '-i': { type: 'boolean', description: 'Case insensitive search' },
      head_limit: { type: 'number' },
    },
    ['pattern'],
  ),
  tool(
    'Read',
    'Reads a file from the local filesystem.',
    {
      file_path: text('The absolute path to the file to read'),
      offset: { type: 'number' },
      limit: { type: 'number' },
    },
    ['file_path'],
  ),
  tool(
    'Edit',
    'Performs exact string replacements in files.',
    {
      file_path: text('The absolute path to the file to modify'),
      old_string: text('The text to replace'),
      new_string: text('The text to replace it with'),
      replace_all: { type: 'boolean', default: false },
    },
    ['file_path', 'old_string', 'new_string'],
  ),
  tool(
    'Write',
    'Writes a file to the local filesystem.',
    {
      file_path: text('The absolute path to the file to write'),
      content: text('The content to write to the file'),
    },
    ['file_path', 'content'],
  ),
  tool(
    'NotebookEdit',
    'Completely replaces the contents of a specific cell in a Jupyter notebook.',
    {
      notebook_path: text('The absolute path to the Jupyter notebook file to edit'),
      cell_id: text('The ID of the cell to edit'),
      new_source: text('The new source for the cell'),
      edit_mode: { type: 'string', enum: ['replace', 'insert', 'delete'] },
    },
    ['notebook_path', 'new_source'],
  ),
  tool(
    'WebFetch',
    'Fetches content from a specified URL and processes it using an AI model.',
    {
      url: { type: 'string', format: 'uri', description: 'The URL to fetch content from' },
      prompt: text('The prompt to run on the fetched content'),
    },
    ['url', 'prompt'],
  ),
  tool(
    'TodoWrite',
    'Use this tool to create and manage a structured task list.',
    {
      todos: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            content: { type: 'string', minLength: 1 },
            status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
            activeForm: { type: 'string', minLength: 1 },
          },
          required: ['content', 'status', 'activeForm'],
          additionalProperties: false,
        },
        description: 'The updated todo list',
      },
    },
    ['todos'],
  ),
  tool(
    'BashOutput',
    'Retrieves output from a running or completed background bash shell.',
    {
      bash_id: text('The ID of the background shell to retrieve output from'),
    },
    ['bash_id'],
  ),
  tool(
    'KillShell',
    'Kills a running background bash shell by its ID.',
    {
      shell_id: text('The ID of the background shell to kill'),
    },
    ['shell_id'],
  ),
  tool(
    'ExitPlanMode',
    'Use this tool when you are in plan mode and have finished presenting your plan.',
    {
      plan: text('The plan you came up with, that you want to run by the user for approval'),
    },
    ['plan'],
  ),
];

/** The body of one Claude Code turn, asking for `model`. */
export function claudeCodeRequest(model: string): Record<string, unknown> {
  return {
    model,
    max_tokens: 32000,
    system: [
      {
        type: 'text',
        text: "You are Claude Code, Anthropic's official CLI for Claude.",
        cache_control: ephemeral,
      },
      {
        type: 'text',
        text: 'You are an interactive CLI tool that helps users with software engineering tasks.\n\n# Tone and style\nYou should be concise, direct, and to the point.',
        cache_control: ephemeral,
      },
    ],
    messages: [
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# important-instruction-reminders\nDo what has been asked; nothing more, nothing less.\n</system-reminder>",
          },
          { type: 'text', text: 'List the files in this directory.', cache_control: ephemeral },
        ],
      },
    ],
    tools: tools.map((entry, index) =>
      index === tools.length - 1 ? { ...entry, cache_control: ephemeral } : entry,
    ),
    metadata: {
      user_id:
        'user_6f1c3b0d2a9e48f7b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2_account__session_3f2e1d0c-b9a8-4765-8432-10fedcba9876',
    },
    stream: true,
  };
}

/** The headers Claude Code sends beside its key. */
export const claudeCodeHeaders: Readonly<Record<string, string>> = {
  'anthropic-version': '2023-06-01',
  'anthropic-beta':
    'claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14',
  'anthropic-dangerous-direct-browser-access': 'true',
  'x-app': 'cli',
  'user-agent': 'claude-cli/2.0.14 (external, cli)',
  'x-stainless-lang': 'js',
  'x-stainless-package-version': '0.60.0',
  'x-stainless-runtime': 'node',
  'x-stainless-retry-count': '0',
  'x-stainless-timeout': '600',
  accept: 'application/json',
};
