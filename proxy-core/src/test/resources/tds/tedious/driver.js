'use strict';
// tedious driven one command at a time, for TdsTediousIT: each line on standard input is a JSON command with an
// "id"; each line on standard output is a JSON answer to one command (same "id"), or an event of the connection
// ("event"). Commands may arrive while a request runs (a "cancel" does), as an application's code would call
// connection.cancel() while it waits. What tedious reports is passed on as it is: rows as their values, errors
// with their class name, code, number, class (severity), state and message.
//
//   {"id":1,"op":"connect","port":..,"user":..,"password":..,"database":..,"encrypt":false|true|"strict",
//    "trustServerCertificate":bool,"ca":"PEM","serverName":"localhost","packetSize":4096}
//   {"id":2,"op":"batch","sql":".."}                        execSqlBatch: a SQLBatch message
//   {"id":3,"op":"sql","sql":"..","params":[{"name":"n","type":"Int","value":1}]}
//                                                           execSql: an RPC to sp_executesql
//   {"id":4,"op":"prepare","name":"p","sql":"..","params":[{"name":"n","type":"Int"}]}   sp_prepare
//   {"id":5,"op":"execute","name":"p","values":{"n":1}}     sp_execute by the prepared handle
//   {"id":6,"op":"unprepare","name":"p"}                    sp_unprepare
//   {"id":7,"op":"cancel"}                                  connection.cancel(): answered at once with whether a
//                                                           request was there to cancel; the request's own answer
//                                                           then says how it ended
//   {"id":8,"op":"close"}                                   connection.close(), answered at its 'end'

const readline = require('node:readline');
const { Connection, Request, TYPES } = require('tedious');

let connection = null;
const prepared = new Map();

function say(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function describe(error) {
  const described = {
    name: error.constructor ? error.constructor.name : typeof error,
    code: error.code,
    message: error.message,
  };
  for (const field of ['number', 'state', 'class', 'serverName', 'procName', 'lineNumber']) {
    if (error[field] !== undefined) {
      described[field] = error[field];
    }
  }
  if (error.errors) { // an AggregateError: every error the server sent
    described.errors = error.errors.map(describe);
  }
  return described;
}

function value(v) {
  return Buffer.isBuffer(v) ? v.toString('hex') : v;
}

function request(id, sql) {
  const rows = [];
  const returned = {};
  const req = new Request(sql, (error, rowCount) => {
    if (error) {
      say({ id, error: describe(error), rows, returned });
    } else {
      say({ id, ok: true, rowCount, rows, returned });
    }
  });
  req.on('row', columns => rows.push(columns.map(column => value(column.value))));
  req.on('returnValue', (name, v) => { returned[name] = value(v); });
  return req;
}

function addParameters(req, params, withValues) {
  for (const p of params || []) {
    const type = TYPES[p.type];
    if (!type) {
      throw new Error(`unknown tedious type ${p.type}`);
    }
    req.addParameter(p.name, type, withValues ? p.value : undefined);
  }
}

function connect(id, command) {
  const options = {
    port: command.port,
    database: command.database,
    encrypt: command.encrypt,
    trustServerCertificate: command.trustServerCertificate === true,
    connectTimeout: 20000,
    requestTimeout: 0, // requests wait for admission as long as the test holds them
    appName: 'memogate-tests',
  };
  if (command.packetSize) {
    options.packetSize = command.packetSize;
  }
  if (command.serverName) {
    options.serverName = command.serverName;
  }
  if (command.ca) {
    options.cryptoCredentialsDetails = { ca: command.ca };
  }
  connection = new Connection({
    server: '127.0.0.1',
    authentication: { type: 'default', options: { userName: command.user, password: command.password } },
    options,
  });
  let answered = false;
  connection.on('connect', error => {
    answered = true;
    if (error) {
      say({ id, error: describe(error) });
    } else {
      say({ id, ok: true, tdsVersion: connection.config.options.tdsVersion });
    }
  });
  connection.on('error', error => say({ event: 'error', error: describe(error) }));
  connection.on('end', () => {
    say({ event: 'end' });
    if (!answered) {
      answered = true;
      say({ id, error: { name: 'Ended', message: 'the connection ended before it was made' } });
    }
  });
  connection.connect();
}

function run(command) {
  const id = command.id;
  switch (command.op) {
    case 'connect':
      return connect(id, command);
    case 'batch':
      return connection.execSqlBatch(request(id, command.sql));
    case 'sql': {
      const req = request(id, command.sql);
      addParameters(req, command.params, true);
      return connection.execSql(req);
    }
    case 'prepare': {
      // tedious ends a prepare with the request's 'prepared' or 'error' event, not its callback; the callback
      // answers each later execute or unprepare of the same request.
      const p = { rows: [], answer: null };
      const req = new Request(command.sql, (error, rowCount) => p.answer(error, rowCount));
      req.on('row', columns => p.rows.push(columns.map(column => value(column.value))));
      req.on('prepared', () => say({ id, ok: true, handle: req.handle }));
      req.on('error', error => say({ id, error: describe(error) }));
      addParameters(req, command.params, false);
      prepared.set(command.name, p);
      p.request = req;
      return connection.prepare(req);
    }
    case 'execute': {
      const p = prepared.get(command.name);
      p.rows = [];
      p.answer = (error, rowCount) => error ? say({ id, error: describe(error), rows: p.rows })
        : say({ id, ok: true, rowCount, rows: p.rows });
      return connection.execute(p.request, command.values || {});
    }
    case 'unprepare': {
      const p = prepared.get(command.name);
      p.answer = error => error ? say({ id, error: describe(error) }) : say({ id, ok: true });
      return connection.unprepare(p.request);
    }
    case 'cancel':
      return say({ id, ok: true, cancelled: connection.cancel() });
    case 'close':
      connection.once('end', () => say({ id, ok: true }));
      return connection.close();
    default:
      return say({ id, error: { name: 'UnknownCommand', message: `unknown op ${command.op}` } });
  }
}

const input = readline.createInterface({ input: process.stdin });
input.on('line', line => {
  if (!line.trim()) {
    return;
  }
  let command;
  try {
    command = JSON.parse(line);
    run(command);
  } catch (error) {
    say({ id: command ? command.id : null, error: describe(error) });
  }
});
input.on('close', () => {
  if (connection) {
    connection.close();
  }
  process.exit(0);
});
